/// A nap before a night away: a stillness at home of two hours or more begun in the afternoon, or
/// from after lunch when begun on coming home in the late morning (a still day from the morning at home
/// is a day on the sofa), and ended that evening (from `gettingReady` to `napToNight`)
/// before leaving home for a night away that is no rest (stays away from home through the small
/// hours: a night shift, on one ward or several; or a stay begun late in the evening that the data
/// ends in), is sleep: someone up all night lies down the afternoon before.
extension SlotContext {
    /// The afternoon, local minutes after midnight.
    static let afternoon = 12.0 * 60..<18.0 * 60
    /// Home from a trip out in the late morning, still into the afternoon: the nap begins with the first piece from `afterLunch`.
    static let lateMorning = 10.0 * 60..<12.0 * 60
    static let afterLunch = 13.5 * 60
    /// A nap before a night away lasts at least this many minutes.
    static let shortestNap = 120.0
    /// From the nap's end to leaving home for the night, at most this many minutes.
    static let napToNight = 360.0
    /// A walk between two stays at a place up to this long (ms) is about it (a ward round, a walk round the warehouse).
    static let roundOfTheWard: Int64 = 30 * 60_000
    /// Movement between two stays away from home up to this long (ms) keeps a night away one: a long
    /// round of the wards at midnight, the way to another building of the hospital.
    static let betweenStaysAway: Int64 = 60 * 60_000

    /// Marks as rests the stillnesses at home before a night awake away from home.
    static func markNapsBeforeNights(_ contexts: inout [SlotContext], _ spans: [SlotSpan]) {
        func awayAllNight(_ first: Int) -> Bool {
            func away(_ index: Int) -> Bool { index < contexts.count && contexts[index].isStay && contexts[index].kind != .home && !spans[index].slot.isGap }
            guard away(first) else { return false }
            var last = first
            // The stays away from home, and the movement between them (a round, the way to another building).
            func moving(_ index: Int) -> Bool { index < contexts.count && !contexts[index].isStay && !spans[index].slot.isGap }
            while true {
                var next = last + 1, between: Int64 = 0
                while moving(next), between < betweenStaysAway {
                    between += spans[next].duration
                    next += 1
                }
                guard between < betweenStaysAway, away(next) else { break }
                last = next
            }
            guard !contexts[first...last].contains(where: \.isSleep) else { return false }
            let start = contexts[first].startMinute, end = start + Double(spans[last].end - spans[first].start) / 60_000
            let smallHours: [Double] = [60, 60 + 1440]
            // Or the night away in progress: the data's last stay, begun late in the evening.
            let inProgress = last == contexts.count - 1 && (Double(NightSplit.lateEvening * 60)..<1440).contains(start)
            return inProgress || smallHours.contains { start <= $0 && end >= $0 + 240 }
        }
        for index in contexts.indices where contexts[index].isStay && contexts[index].kind == .home && !spans[index].slot.isGap
            && contexts[index].stillFirst == index && !contexts[index].isSleep
            && (lateMorning.lowerBound..<afternoon.upperBound).contains(contexts[index].stillStart) && !sleptByDay(before: index, contexts, spans) {
            var last = index
            while last + 1 < contexts.count && contexts[last + 1].stillFirst == index { last += 1 }
            // Home from a trip out in the late morning, the nap begins after lunch.
            let cameHome = cameHome(at: index, contexts)
            guard let first = afternoon.contains(contexts[index].stillStart) ? index
                    : cameHome ? (index...last).first(where: { contexts[$0].startMinute >= afterLunch }) : nil,
                  Double(spans[last].end - spans[first].start) / 60_000 >= shortestNap else { continue }
            // Home until the night away (stays at home and movement about it, no rest, no gap);
            // leaving at the first movement after the last stay at home.
            var next = last + 1, leaving = last + 1
            while next < contexts.count, !spans[next].slot.isGap, !contexts[next].isSleep, !contexts[next].isStay || contexts[next].kind == .home {
                if contexts[next].isStay { leaving = next + 1 }
                next += 1
            }
            guard next < contexts.count, !spans[next].slot.isGap, leaving < next,
                  (gettingReady...napToNight).contains(Double(spans[leaving].start - spans[last].end) / 60_000), awayAllNight(next)
            else { continue }
            for member in first...last { contexts[member].isSleep = true }
        }
    }

    /// Whether the stay at `index` begins on coming back from a stay somewhere else (`placeBefore` is not set yet).
    static func cameHome(at index: Int, _ contexts: [SlotContext]) -> Bool {
        guard index > 0, !contexts[index - 1].isStay else { return false }
        let before = contexts[..<index].lastIndex(where: \.isStay)
        return before.map { contexts[$0].place != contexts[index].place } ?? false
    }
}
