import Foundation

/// Where a stay that goes on through a meal time splits, when nothing in it shows the meal (a
/// phone on a table at home shows nothing of getting up to eat): the meal at its usual time
/// (`SlotContext.meals`), `MealEnd.meal` long. The pieces stay one stillness: labelling takes
/// the piece as the meal only when the visit shows none at that meal time
/// (`SlotContext.markVisits`), and neighbours of one category are published as one slot.
struct UsualMeal: Sendable {
    /// The device's local days; `nil` splits nothing.
    var days: LocalDays?

    /// The stay goes on at least this long before the meal and after it.
    static let margin: Int64 = 30 * 60_000

    /// A sign further than this from the usual meal shows another one only if it begins it
    /// (`SlotContext.oneEndShown`): labelling takes no meal ended by it.
    static let shown = Int64(SlotContext.oneEndShown * 60_000)

    /// The instants to split a stay from `start` to `end` at, in order: each usual meal it holds
    /// with `margin` either side, unless one of `signs` (instants the phone shows something:
    /// getting up, which may end a meal) lies within `shown` of it.
    func cuts(start: Int64, end: Int64, signs: [Int64] = []) -> [Int64] {
        guard let days, end - start >= MealEnd.meal + 2 * Self.margin else { return [] }
        let zone = days.calendar.timeZone
        // The instant of local `minute` on the day whose local midnight reads `midnight` (ms).
        func instant(_ midnight: Int64, _ minute: Double) -> Int64 {
            let clock = midnight + Int64(minute * 60_000)
            return clock - Int64(zone.secondsFromGMT(for: Date(milliseconds: clock))) * 1000
        }
        let day: Int64 = 86_400_000
        let local = start + Int64(zone.secondsFromGMT(for: Date(milliseconds: start))) * 1000
        var cuts: [Int64] = []
        var midnight = local - local % day
        while instant(midnight, 0) < end {
            for meal in SlotContext.meals {
                let from = instant(midnight, meal.usual), to = from + MealEnd.meal
                let window = from - Self.shown...to + Self.shown
                guard from - start >= Self.margin, end - to >= Self.margin, !signs.contains(where: window.contains) else { continue }
                cuts += [from, to]
            }
            midnight += day
        }
        return cuts
    }
}
