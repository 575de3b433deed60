import Foundation

/// Where a long stay that ends with getting up at a meal time splits: the half hour or so
/// before getting up may be the meal (with the phone on a table, getting up from it is often all
/// the phone shows of a meal). So does a stay left at a meal time after the meal's usual hour:
/// someone home through lunch time who goes out at 13:08 had lunch before going; and a stay begun
/// by getting up at a meal time, whose first half hour may be the meal (`begun`). The pieces stay
/// one stillness: labelling decides which of them is a meal (`SlotContext.markMeals`), and
/// neighbours of one category are published as one slot. Coming home at dinner time, the meal
/// comes first (`arrival`).
struct MealEnd: Sendable {
    /// The device's local days; `nil` splits nothing.
    var days: LocalDays?

    /// How long a meal is taken to last before getting up from it.
    static let meal: Int64 = 35 * 60_000
    static let mealMinutes = Double(meal / 60_000)
    /// The stay before the meal is at least this long (a shorter stay may be the meal itself).
    static let shortestPiece: Int64 = 30 * 60_000

    /// The local minutes in which coming home from a trip to a stay puts the meal with the
    /// `usual` start first: from half an hour before it to an hour after.
    static func arrivals(_ usual: Double) -> ClosedRange<Double> { usual - 30...usual + 60 }
    /// The meals coming home puts first: dinner (lunch is as often eaten out before coming home).
    static let mealsOnArrival = [SlotContext.meals[SlotContext.meals.count - 1].usual]

    /// The instant to split a stay from `start` to `end` at, begun by coming home from a trip,
    /// if it begins at a meal time (`arrivals`): the meal may be its first part.
    func arrival(start: Int64, end: Int64) -> Int64? {
        end - start >= Self.meal + Self.shortestPiece && arrivesAtMealTime(start) ? start + Self.meal : nil
    }

    /// Whether coming home at `start` may put a meal first (`arrivals`).
    func arrivesAtMealTime(_ start: Int64) -> Bool {
        guard let minute = localMinute(start) else { return false }
        return Self.mealsOnArrival.contains { Self.arrivals($0).contains(minute) }
    }

    /// The instant to split a stay from `start` to `end` at, ended by getting up, if its end is
    /// in a meal window (`SlotContext.meals`); ended by `leaving`, if it is also past the meal's usual start.
    func cut(start: Int64, end: Int64, leaving: Bool = false) -> Int64? {
        guard end - start >= Self.meal + Self.shortestPiece, let minute = localMinute(end) else { return nil }
        return SlotContext.meals.contains { $0.window.contains(minute) && (!leaving || minute >= $0.usual) } ? end - Self.meal : nil
    }

    /// The instant to split a stay from `start` (getting up: movement comes before it) to `end`
    /// at, if a meal begun then would have its middle in a meal window: the meal may be its first
    /// part (a phone on a table shows getting up to eat as often as getting up from the meal).
    func begun(start: Int64, end: Int64) -> Int64? {
        end - start > Self.longestWhole && begunAtMealTime(start) ? start + Self.meal : nil
    }

    /// A stay no longer than this (a meal out, `SlotContext.longestMealOut`) may be a whole meal:
    /// getting up at its start does not cut it.
    static let longestWhole = Int64(SlotContext.longestMealOut * 60_000)

    /// Whether getting up at `start` may begin a meal (`begun`).
    func begunAtMealTime(_ start: Int64) -> Bool {
        guard let minute = localMinute(start) else { return false }
        return SlotContext.meals.contains { $0.window.contains(minute + Self.mealMinutes / 2) }
    }

    /// Local minutes after midnight at `instant`.
    func localMinute(_ instant: Int64) -> Double? { days?.minute(of: instant) }
}
