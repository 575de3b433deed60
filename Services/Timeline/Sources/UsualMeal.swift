import Foundation

/// Where a stay that goes on through a meal time splits, when nothing in it shows the meal (a
/// phone on a table at home shows nothing of getting up to eat): the meal at its usual time
/// (`SlotContext.meals`), `MealEnd.meal` long. The pieces stay one stillness:
/// labelling takes the piece as the meal only when the visit shows none at that meal time
/// (`SlotContext.markVisits`), and neighbours of one category are published as one slot.
struct UsualMeal: Sendable {
    /// The device's local days; `nil` splits nothing.
    var days: LocalDays?

    /// The stay goes on at least this long before the meal and after it.
    static let margin: Int64 = 30 * 60_000

    /// The instants to split a stay from `start` to `end` at, in order: each usual meal it holds
    /// with `margin` either side, unless one of `signs` (instants the phone shows something:
    /// a cut where getting up ends the stay) lies in that meal's window.
    func cuts(start: Int64, end: Int64, signs: [Int64] = []) -> [Int64] {
        guard let days, end - start >= MealEnd.meal + 2 * Self.margin else { return [] }
        var cuts: [Int64] = []
        var day = days.calendar.startOfDay(for: Date(milliseconds: start))
        while day.milliseconds < end {
            for meal in SlotContext.meals {
                guard let from = days.instant(minute: meal.usual, of: day), let opens = days.instant(minute: meal.window.lowerBound, of: day),
                      let closes = days.instant(minute: meal.window.upperBound, of: day)
                else { continue }
                let to = from + MealEnd.meal
                guard from - start >= Self.margin, end - to >= Self.margin, !signs.contains(where: (opens...closes).contains) else { continue }
                cuts += [from, to]
            }
            guard let next = days.calendar.date(byAdding: .day, value: 1, to: day) else { break }
            day = next
        }
        return cuts
    }
}

extension LocalDays {
    /// The instant `minute` minutes after midnight (by the clock) on the local `day`.
    func instant(minute: Double, of day: Date) -> Int64? {
        let whole = Int(minute)
        return calendar.date(bySettingHour: whole / 60, minute: whole % 60, second: 0, of: day)?.milliseconds
    }
}
