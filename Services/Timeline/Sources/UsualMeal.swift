import Foundation

/// Where a stay that goes on through a meal time splits, when nothing in it shows the meal (a
/// phone on a table at home shows nothing of getting up to eat): `MealEnd.meal` long, from each
/// quarter hour the person's own meal time may be at (`starts`, around the usual one of
/// `SlotContext.meals`). The pieces stay one stillness: labelling takes those from the person's
/// meal time (learned from the meals their phone shows, or the usual one) as the meal only when
/// the visit shows none at that meal time (`SlotContext.markVisits`), and neighbours of one
/// category are published as one slot.
struct UsualMeal: Sendable {
    /// The device's local days; `nil` splits nothing.
    var days: LocalDays?

    /// The stay goes on at least this long before the meal and after it.
    static let margin: Int64 = 30 * 60_000

    /// A sign further than this from the usual meal shows another one only if it begins it
    /// (`SlotContext.oneEndShown`): labelling takes no meal ended by it.
    static let shown = Int64(SlotContext.oneEndShown * 60_000)

    /// Minutes from the usual start of a meal a person's own may start at (a quarter hour each).
    static let starts: [Double] = [-30, -15, 0, 15, 30, 45, 60]

    /// The instants to split a stay from `start` to `end` at, in order: each meal from `starts`
    /// it holds with `margin` either side, unless one of `signs` (instants the phone shows
    /// something: getting up, which may end a meal) lies within `shown` of it, or it overlaps
    /// `apart` (the piece that may be the meal before getting up or leaving, `MealEnd`).
    func cuts(start: Int64, end: Int64, signs: [Int64] = [], apart: Range<Int64>? = nil) -> [Int64] {
        guard let days, end - start >= MealEnd.meal + 2 * Self.margin else { return [] }
        var cuts: [Int64] = []
        for (midnight, _) in days.clockMidnights(from: start, to: end) {
            for meal in SlotContext.meals {
                for offset in Self.starts {
                    let from = days.instant(minute: meal.usual + offset, clockMidnight: midnight), to = from + MealEnd.meal
                    let window = from - Self.shown...to + Self.shown
                    guard from - start >= Self.margin, end - to >= Self.margin, !signs.contains(where: window.contains),
                          !(apart?.overlaps(from..<to) ?? false) else { continue }
                    cuts += [from, to]
                }
            }
        }
        return Array(Set(cuts)).sorted()
    }
}
