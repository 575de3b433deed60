import Foundation

/// Where a long weekday stay splits at the start and end of working hours, so a day of work at
/// home can be told from the morning before it and the evening after it: at each quarter hour
/// a person's own working day may start at (`starts`: half an hour either side of 09:00 local)
/// and at 17:00. The pieces stay one stillness (no movement parts them): labelling decides
/// whether they differ (`SlotContext.markWorkAtHome`, from the start the person's phone shows),
/// and neighbours of one category are published as one slot.
struct WorkingHours: Sendable {
    /// The device's local days; `nil` splits nothing.
    var days: LocalDays?

    /// The usual start and end of working hours, local minutes after midnight.
    static let start = 9.0 * 60, end = 17.0 * 60
    /// The local minutes a person's own working day may start at.
    static let starts: [Double] = [-30, -15, 0, 15, 30].map { start + $0 }
    /// Pieces shorter than this are not split off.
    static let shortestPiece: Int64 = 30 * 60_000

    /// The instants to split a stay from `start` to `end` at, in order: at each of `minutes`
    /// (local minutes after midnight; `starts` and `end` unless given) on each weekday.
    func cuts(start: Int64, end: Int64, at minutes: [Double] = Self.starts + [Self.end]) -> [Int64] {
        guard let days, end - start >= 2 * Self.shortestPiece else { return [] }
        var cuts: [Int64] = []
        for (midnight, weekday) in days.clockMidnights(from: start, to: end) where weekday < 5 {
            for minute in minutes.sorted() {
                let cut = days.instant(minute: minute, clockMidnight: midnight)
                if cut - start >= Self.shortestPiece, end - cut >= Self.shortestPiece { cuts.append(cut) }
            }
        }
        return cuts
    }
}
