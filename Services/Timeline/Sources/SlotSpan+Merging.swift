/// The slots a person would draw: neighbours with the same category are one slot unless a
/// real change separates them (two stays at different places, or a gap in the data).
extension Array where Element == SlotSpan {
    /// Stays further apart than this are different places.
    static var samePlaceDistance: Double { 300 }

    /// The merged slots, each with the range of slots it covers.
    public func mergedGroups() -> [(slots: Range<Int>, span: SlotSpan)] {
        var groups: [(slots: Range<Int>, span: SlotSpan)] = []
        var first = startIndex
        while first < endIndex {
            var last = first
            while last + 1 < endIndex, Self.continues(self[first...last], with: self[last + 1]) { last += 1 }
            groups.append((first..<last + 1, Self.merge(self[first...last])))
            first = last + 1
        }
        return groups
    }

    /// The merged slots.
    public func merged() -> [SlotSpan] { mergedGroups().map(\.span) }

    static func continues(_ group: ArraySlice<SlotSpan>, with next: SlotSpan) -> Bool {
        let last = group[group.endIndex - 1]
        guard !last.slot.isGap, !next.slot.isGap, last.slot.category == next.slot.category, last.end == next.start else { return false }
        guard next.slot.activity == .stationary, let here = next.slot.location else { return true }
        let stays = group.filter { $0.slot.activity == .stationary && $0.slot.location != nil }
        guard let stay = stays.max(by: { $0.duration < $1.duration }), let there = stay.slot.location else { return true }
        return here.distance(to: there) <= samePlaceDistance
    }

    /// One slot for a run: the category of all, the activity that took most of the time, the
    /// place of the longest stay (else of the longest part), time-weighted confidence.
    static func merge(_ run: ArraySlice<SlotSpan>) -> SlotSpan {
        let head = run[run.startIndex]
        guard run.count > 1 else { return head }
        let end = run[run.endIndex - 1].end
        var activityTime: [MotionActivity: Int64] = [:]
        for part in run { activityTime[part.slot.activity, default: 0] += part.duration }
        let activity = activityTime.max { ($0.value, $1.key.order) < ($1.value, $0.key.order) }!.key
        let stays = run.filter { $0.slot.activity == .stationary && $0.slot.location != nil }
        let place = (stays.isEmpty ? Array(run) : stays).max { $0.duration < $1.duration }?.slot.location
        let total = Swift.max(end - head.start, 1)
        let confidence = run.reduce(0.0) { $0 + $1.slot.confidence * Double($1.duration) } / Double(total)
        var slot = TimeSlot(
            start: head.start, category: head.slot.category, confidence: confidence, activity: activity, location: place,
            edited: run.contains { $0.slot.edited })
        slot.endsMoving = run[run.endIndex - 1].slot.endsMoving
        slot.endsAtCharger = run[run.endIndex - 1].slot.endsAtCharger
        return SlotSpan(slot: slot, end: end)
    }
}
