/// A stay at another place between two stays at work, walked to and back (or moved to with no walk
/// seen): another building, a meeting across the road, a stray fix on the ward. Unless it is a
/// lunch out (`lunchOutStarts`, and `SlotContext.stayGuess` reads a lunch first), it is more of the working day.
extension SlotContext {
    /// The walking on either side takes at most this many minutes: farther is going somewhere.
    static let walkFromWork = 15.0
    /// The stay there lasts at most this many minutes.
    static let longestAwayFromWork = 180.0
    /// A stay of a meal's length (20 to 55 minutes) begun in this window (local minutes) is a lunch
    /// out, a late one too, not more of the working day: the other rules read it.
    static let lunchOutStarts = 11.5 * 60...15.0 * 60

    /// Marks the stays elsewhere between two stays at work (`isNearWork`).
    static func markStaysNearWork(_ contexts: inout [SlotContext], _ spans: [SlotSpan]) {
        func elsewhere(_ index: Int) -> Bool {
            let context = contexts[index]
            return context.isStay && [.other, .unknown].contains(context.kind) && !spans[index].slot.isGap && context.place != nil
        }
        /// The stay at work reached from `index` stepping by `step` over `walkFromWork` minutes of walking at most.
        func workBeyond(_ index: Int, step: Int) -> Bool {
            var next = index + step, walking = 0.0
            while contexts.indices.contains(next), !spans[next].slot.isGap, contexts[next].activity == .walking {
                walking += contexts[next].minutes
                next += step
            }
            return walking <= walkFromWork && contexts.indices.contains(next) && !spans[next].slot.isGap
                && contexts[next].isStay && contexts[next].kind == .work
        }
        for run in runs(below: contexts.count, where: elsewhere, joins: { contexts[$1].place == contexts[$0].place }) {
            let minutes = contexts[run].reduce(0) { $0 + $1.minutes }
            if minutes <= longestAwayFromWork, workBeyond(run.lowerBound, step: -1), workBeyond(run.upperBound, step: 1),
               !contexts[run].contains(where: { $0.isSleep || $0.isWorkout }),
               !isLunchOut(minutes: minutes, start: contexts[run.lowerBound].startMinute) {
                for member in run { contexts[member].isNearWork = true }
            }
        }
    }
}
