import Foundation

/// Where a still morning splits after getting up: a person up from the night has breakfast
/// first (the standard day's half hour), and a phone left on a table shows nothing of its end.
/// The pieces stay one stillness: labelling takes the first as breakfast only when the night
/// ends where it begins (`SlotContext.homeGuess`), and neighbours of one category are published
/// as one slot.
struct Breakfast: Sendable {
    /// The device's local days; `nil` splits nothing.
    var days: LocalDays?

    /// How long breakfast is taken to last when nothing shows its end.
    static let length: Int64 = 30 * 60_000
    /// The stay goes on at least this long after it, or it is not split.
    static let shortestAfter: Int64 = 15 * 60_000

    /// The instant to split a stay piece from `start` (a sign of getting up: movement) to `end`
    /// at, if `start` is in the morning and the piece is long enough.
    func cut(start: Int64, end: Int64) -> Int64? {
        end - start >= Self.length + Self.shortestAfter && isMorning(start) ? start + Self.length : nil
    }

    /// Whether `instant` is in the morning (`SlotContext.morning`), local time.
    func isMorning(_ instant: Int64) -> Bool {
        days.map { SlotContext.morning.contains($0.minute(of: instant)) } ?? false
    }
}
