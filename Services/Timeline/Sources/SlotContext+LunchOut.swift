/// A lunch out: at midday, a short stay walked to from work and walked back from, somewhere of
/// its own (a café down the road) further than `nearbyPlace` from where the day's work is done,
/// is a break, however near (inside the work place's radius) and however long the walks (a walk
/// of five minutes is a slot of its own, parting the day's stays at work); in the middle of the
/// day's work (`middleOfDay`), as a break is: near its end it is more of the work (a ward across the site).
extension SlotContext {
    /// Where in the day at work (its first to last minute) a lunch out's middle lies.
    static let middleOfDay = 0.2...0.8

    /// Marks the lunches out in each day at work: the stays at work joined by walks about it
    /// (shorter than `tripOut`), judged from the longest stay's location. A stay's own place is
    /// the fix in effect when it is left (its first may be from the walk there, on arrival).
    /// Returns the days at work (first and last slot) that have one.
    static func markLunchesOut(_ contexts: inout [SlotContext], _ spans: [SlotSpan]) -> [ClosedRange<Int>] {
        func atWork(_ index: Int) -> Bool { contexts[index].isStay && contexts[index].kind == .work && !spans[index].slot.isGap }
        func walkAbout(_ index: Int) -> Bool {
            contexts[index].activity == .walking && spans[index].duration < tripOut && index > 0 && index + 1 < contexts.count
        }
        var days: [ClosedRange<Int>] = []
        var first = 0
        while first < contexts.count {
            guard atWork(first) else { first += 1; continue }
            var last = first
            while last + 1 < contexts.count, atWork(last + 1) || (walkAbout(last + 1) && last + 2 < contexts.count && atWork(last + 2)) { last += 1 }
            defer { first = last + 1 }
            let stays = (first...last).filter(atWork)
            guard let main = stays.max(by: { spans[$0].duration < spans[$1].duration }).flatMap({ spans[$0].slot.location }) else { continue }
            var found = false
            let from = spans[first].start, to = spans[last].end
            for member in stays where member > first && member < last && (10...60).contains(contexts[member].minutes) && contexts[member].isMidday
                && middleOfDay.contains(Double((spans[member].start + spans[member].end) / 2 - from) / Double(to - from)) {
                let walkedTo = !contexts[member - 1].isStay || spans[member - 1].slot.endsMoving == true
                let walkedBack = !contexts[member + 1].isStay || spans[member].slot.endsMoving == true
                let left = contexts[member + 1].isStay ? spans[member].slot.location : spans[member + 1].slot.location
                guard walkedTo, walkedBack, let here = left ?? spans[member].slot.location, here.distance(to: main) > nearbyPlace else { continue }
                contexts[member].isBreak = true
                found = true
            }
            if found { days.append(first...last) }
        }
        return days
    }
}
