/// A walk out: from a place back to it, half an hour or more in all however the data parts it,
/// with no stop on the way but a rest (a bench) and no shop's aisles. It went nowhere: it is the
/// walk itself (a stroll, the dog), not getting somewhere.
extension SlotContext {
    /// A walk from a place back to it this many minutes long or longer is a walk out.
    static let shortestWalkOut = 30.0
    /// A stop this many minutes long or longer on the way is one (a shop, a friend's): shorter, a rest.
    static let shortestStop = 10.0

    /// Marks the walks in a row from a place back to it that make a walk out (`isWalkOut`).
    static func markWalksOut(_ contexts: inout [SlotContext], _ spans: [SlotSpan]) {
        func walking(_ index: Int) -> Bool {
            guard !spans[index].slot.isGap else { return false }
            // A short rest on the way (a bench) does not end the walk.
            return contexts[index].activity == .walking
                || contexts[index].isStay && [.other, .unknown].contains(contexts[index].kind) && contexts[index].visitMinutes < shortestStop
                    && index > 0 && contexts[index - 1].activity == .walking && index + 1 < contexts.count && contexts[index + 1].activity == .walking
        }
        for run in runs(below: contexts.count, where: walking) {
            let (first, last) = (run.lowerBound, run.upperBound)
            let minutes = contexts[first...last].reduce(0) { $0 + $1.minutes }
            // Walking about a shop's aisles on the way is a stop there.
            guard !contexts[first...last].contains(where: { $0.isAboutOnePlace || $0.isWorkout }), minutes >= shortestWalkOut,
                  first > 0, last + 1 < contexts.count, contexts[first - 1].isStay, contexts[last + 1].isStay,
                  let place = contexts[first].placeBefore, contexts[last].placeAfter == place else { continue }
            for member in first...last { contexts[member].isWalkOut = true }
        }
    }
}
