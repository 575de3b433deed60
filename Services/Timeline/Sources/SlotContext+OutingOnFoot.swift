/// An outing on foot: driven somewhere away from home and work, walking about there for an hour or
/// more with short stops (a bench, a view), and driven on; or the same walked from a place and back
/// to it, with no shop's aisles on the way and more than one stop, or a short one. From arriving
/// to leaving is one outing (a walk in a park, a zoo), not walks going somewhere with stops on the way.
extension SlotContext {
    /// The outing lasts at least this many minutes, at least half of them walking.
    static let shortestOutingOnFoot = 60.0
    /// Its stops are each shorter than this many minutes.
    static let longestStopOnFoot = 45.0
    /// Walked from a place back to it with one stop only, the stop is shorter than this many minutes
    /// (a bench); longer, the walk went to it (a friend's).
    static let longestRestOnFoot = 30.0

    /// Marks the walks and stops between two drives, or from a place back to it, that make an
    /// outing on foot (`isOutingOnFoot`).
    static func markOutingsOnFoot(_ contexts: inout [SlotContext], _ spans: [SlotSpan]) {
        func onFoot(_ index: Int) -> Bool {
            let context = contexts[index]
            guard !spans[index].slot.isGap, !context.isWorkout, !context.isSleep else { return false }
            return context.activity == .walking
                || context.isStay && [.other, .unknown].contains(context.kind) && context.minutes < longestStopOnFoot
        }
        // An hour or more, half of it walking: an outing.
        func mark(_ members: Range<Int>) {
            let minutes = members.reduce(0) { $0 + contexts[$1].minutes }
            let walking = members.filter { contexts[$0].activity == .walking }.reduce(0) { $0 + contexts[$1].minutes }
            guard minutes >= shortestOutingOnFoot, walking * 2 >= minutes else { return }
            for member in members { contexts[member].isOutingOnFoot = true }
        }
        var drive = 0
        while drive < contexts.count {
            guard contexts[drive].activity == .automotive, !spans[drive].slot.isGap else {
                drive += 1
                continue
            }
            var next = drive + 1
            while next < contexts.count, onFoot(next) { next += 1 }
            defer { drive = next }
            guard next < contexts.count, next > drive + 1, contexts[next].activity == .automotive, !spans[next].slot.isGap else { continue }
            mark(drive + 1..<next)
        }
        // Walked to from a place and back to it, stopping now and then (a park near home): one long stop is a visit.
        var first = 1
        while first < contexts.count {
            guard contexts[first].activity == .walking, contexts[first - 1].isStay, !spans[first - 1].slot.isGap,
                  let place = contexts[first - 1].place else {
                first += 1
                continue
            }
            var next = first
            while next < contexts.count, onFoot(next), !contexts[next].isAboutOnePlace, !(contexts[next].isStay && contexts[next].place == place) { next += 1 }
            defer { first = max(next, first + 1) }
            guard next < contexts.count, contexts[next].isStay, contexts[next].place == place, contexts[next - 1].activity == .walking,
                  case let stops = contexts[first..<next].filter(\.isStay), stops.count >= 2 || stops.allSatisfy({ $0.minutes < longestRestOnFoot }) else { continue }
            mark(first..<next)
        }
    }
}
