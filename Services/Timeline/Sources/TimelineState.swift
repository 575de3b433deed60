/// A device's generated timeline: what the service stores between generations.
public struct TimelineState: Sendable, Codable, Hashable {
    public var slots: [TimeSlot]
    /// The generation time, the end of the last slot.
    public var generatedUntil: Int64?
    /// Where the next generation resumes; `nil` re-segments everything.
    public var anchor: SegmentationAnchor?

    public init(slots: [TimeSlot] = [], generatedUntil: Int64? = nil, anchor: SegmentationAnchor? = nil) {
        self.slots = slots
        self.generatedUntil = generatedUntil
        self.anchor = anchor
    }

    /// The next generation needs the motion events from here on (every one if `nil`), and the
    /// location events from the one before the last one at or before it, with the motion from then
    /// (`TimelineGenerator.update`).
    public var resumeFrom: Int64? { anchor?.start }

    /// The slots with their ends: the next slot's start, the last one's `generatedUntil`.
    public var spans: [SlotSpan] {
        slots.indices.map { index in
            let end = index + 1 < slots.count ? slots[index + 1].start : max(generatedUntil ?? slots[index].start, slots[index].start)
            return SlotSpan(slot: slots[index], end: end)
        }
    }

    /// The index of the slot in effect at `instant`.
    public func slotIndex(at instant: Int64) -> Int? {
        guard let first = slots.first, instant >= first.start else { return nil }
        var low = 0, high = slots.count
        while high - low > 1 {
            let mid = (low + high) / 2
            if slots[mid].start <= instant { low = mid } else { high = mid }
        }
        return low
    }
}

/// A slot start at which the timeline provably splits: segmenting the events before it alone
/// gives the slots before it, whatever comes after, as long as `Segmenter.separates` holds
/// for the events from it on.
public struct SegmentationAnchor: Sendable, Codable, Hashable {
    /// The start of the first motion event (and slot) after the split.
    public var start: Int64
    /// That event's activity, to notice if the events handed back are not the ones segmented.
    var activity: MotionActivity
    /// The last span before the split entering each pass (see `Segmenter.separates`).
    var before: [Span.Shape?]
    /// The passes that segmented the slots before the split; other passes mean a rebuild.
    var passes: [SegmentationPass]
}
