/// An outing on foot: driven somewhere away from home and work, walking about there for an hour or
/// more with short stops (a bench, a view), and driven on. From arriving to leaving is one outing (a
/// walk in a park, a zoo), not walks going somewhere with stops on the way.
extension SlotContext {
    /// The outing lasts at least this many minutes, at least half of them walking.
    static let shortestOutingOnFoot = 60.0
    /// Its stops are each shorter than this many minutes.
    static let longestStopOnFoot = 45.0

    /// Marks the walks and stops between two drives that make an outing on foot (`isOutingOnFoot`).
    static func markOutingsOnFoot(_ contexts: inout [SlotContext], _ spans: [SlotSpan]) {
        func onFoot(_ index: Int) -> Bool {
            let context = contexts[index]
            guard !spans[index].slot.isGap, !context.isWorkout, !context.isSleep else { return false }
            return context.activity == .walking
                || context.isStay && [.other, .unknown].contains(context.kind) && context.minutes < longestStopOnFoot
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
            let members = drive + 1..<next
            let minutes = members.reduce(0) { $0 + contexts[$1].minutes }
            let walking = members.filter { contexts[$0].activity == .walking }.reduce(0) { $0 + contexts[$1].minutes }
            guard minutes >= shortestOutingOnFoot, walking * 2 >= minutes else { continue }
            for member in members { contexts[member].isOutingOnFoot = true }
        }
    }
}
