/// A workout: an outing to a place away from home and work, from arriving to leaving, whose stays
/// are parted by moving about it (the walk to the next machine, a treadmill's run, the aisles
/// between them, walking less than `roundOfTheWard`) rather than going anywhere, is exercise when it lasts `workoutMinutes` and the
/// person never settles: it holds a run, or its stays are `workoutPieces` stillnesses or more,
/// none `settled` long, or more than `workoutPieces` of `settled` minutes on average within
/// `restlessMinutes` (a gym's sets), or two or more, none `pacedStill` long, with a third of the time walking
/// about the place (a gym hour of two 20-minute stays and eleven minutes' walking after each); but
/// not an hour and a half or more, half of it walking, with no run (`outingMinutes`): an outing.
extension SlotContext {
    static let workoutMinutes = 30.0...150.0
    static let workoutPieces = 3
    static let settled = 20.0
    static let pacedStill = 25.0
    static let restlessMinutes = 90.0
    /// Stops and walks at a place this many minutes or longer, half of it walking, are an outing (a
    /// park's paths, a family's afternoon out) unless they hold a run: a gym hour is shorter.
    static let outingMinutes = 90.0

    /// Marks the stays and the moving about of each workout (`isWorkout`). Walking at the place
    /// (`places`) just before the first stay or after the last counts in its length: three hours
    /// walking about a zoo are an outing, not a workout. A visit of a workout's length to a place
    /// worked out at on another visit is one too: the gym on a day the phone lay in a locker.
    static func markWorkouts(_ contexts: inout [SlotContext], _ spans: [SlotSpan], places: DevicePlaces) {
        func stay(_ index: Int, at place: Int) -> Bool {
            contexts.indices.contains(index) && contexts[index].isStay && contexts[index].place == place && !spans[index].slot.isGap
        }
        func aboutIt(_ index: Int) -> Bool {
            guard contexts.indices.contains(index), !spans[index].slot.isGap else { return false }
            switch contexts[index].activity {
            case .running: return true
            case .walking: return contexts[index].isAboutOnePlace || spans[index].duration < roundOfTheWard
            default: return false
            }
        }
        var first = 0
        // Places worked out at, and the other visits of a workout's length (no outing) to a place.
        var workoutPlaces: Set<Int> = [], otherVisits: [(members: ClosedRange<Int>, place: Int)] = []
        while first < contexts.count {
            guard contexts[first].isStay, let place = contexts[first].place, [.other, .unknown].contains(contexts[first].kind) else { first += 1; continue }
            // On through stays at the place and moving about it that leads back to it.
            var last = first, next = first + 1
            while true {
                var probe = next
                while aboutIt(probe) { probe += 1 }
                guard stay(probe, at: place) else { break }
                last = probe
                next = probe + 1
            }
            defer { first = last + 1 }
            let members = first...last
            let stays = members.filter { contexts[$0].isStay }
            func walkingThere(_ index: Int) -> Bool {
                contexts.indices.contains(index) && contexts[index].activity == .walking && !spans[index].slot.isGap
                    && places.place(of: spans[index].slot.location) == place
            }
            let around = [first - 1, last + 1].filter(walkingThere).reduce(0) { $0 + contexts[$1].minutes }
            let minutes = members.reduce(0) { $0 + contexts[$1].minutes }
            guard minutes + around <= workoutMinutes.upperBound else { continue }
            let pieces = Set(stays.map { contexts[$0].stillFirst }).count
            let longest = stays.map { contexts[$0].stillMinutes }.max() ?? 0
            // An hour or so getting up again and again (every `settled` minutes on average): a gym's sets.
            let restless = pieces > workoutPieces && minutes + around <= restlessMinutes
                && stays.reduce(0) { $0 + contexts[$1].minutes } / Double(pieces) < settled
            let ran = members.contains { contexts[$0].activity == .running }
            let walking = members.filter { !contexts[$0].isStay }.reduce(0) { $0 + contexts[$1].minutes } + around
            let paced = pieces >= 2 && longest < pacedStill && walking >= (minutes + around) / 3
            // Half the time or more walking, an hour and a half or longer, with no run: an outing on foot.
            let outing = walking * 2 >= minutes + around && minutes + around >= outingMinutes
            guard workoutMinutes.contains(minutes), ran || !outing && ((pieces >= workoutPieces && longest < settled) || restless || paced) else {
                if workoutMinutes.contains(minutes), !outing { otherVisits.append((members, place)) }
                continue
            }
            workoutPlaces.insert(place)
            for member in members { contexts[member].isWorkout = true }
        }
        for visit in otherVisits where workoutPlaces.contains(visit.place) {
            for member in visit.members { contexts[member].isWorkout = true }
        }
    }
}
