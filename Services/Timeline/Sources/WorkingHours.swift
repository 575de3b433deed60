import Foundation

/// Where a long weekday stay splits at the start and end of working hours (09:00 and 17:00
/// local), so a day of work at home can be told from the morning before it and the evening
/// after it. The pieces stay one stillness (no movement parts them): labelling decides whether
/// they differ, and neighbours of one category are published as one slot.
struct WorkingHours: Sendable {
    /// The device's local days; `nil` splits nothing.
    var days: LocalDays?

    /// Local hours working hours start and end.
    static let start = 9, end = 17
    /// Pieces shorter than this are not split off.
    static let shortestPiece: Int64 = 30 * 60_000

    /// The instants in `start..<end` to split a stay at, in order.
    func cuts(start: Int64, end: Int64) -> [Int64] {
        guard let days, end - start >= 2 * Self.shortestPiece else { return [] }
        var cuts: [Int64] = []
        var day = days.calendar.startOfDay(for: Date(milliseconds: start))
        while day.milliseconds < end {
            if days.weekday(of: day.milliseconds + 12 * 3_600_000) < 5 {
                for hour in [Self.start, Self.end] {
                    guard let cut = days.calendar.date(bySettingHour: hour, minute: 0, second: 0, of: day)?.milliseconds,
                          cut - start >= Self.shortestPiece, end - cut >= Self.shortestPiece
                    else { continue }
                    cuts.append(cut)
                }
            }
            guard let next = days.calendar.date(byAdding: .day, value: 1, to: day) else { break }
            day = next
        }
        return cuts
    }
}
