import Foundation
@testable import GuardianTimeline
import Testing

/// A meal with the phone on a table: only getting up from it shows.
extension PersonDrawnSlotsTests {
    /// Wednesday: up at 07:00, breakfast, a walk out, then the phone on a table at home from
    /// 07:52 until getting up at `getUp` (local minutes), and still again until the night.
    func stillMorning(getUp: Double) -> OfflineTimeline.DeviceEvents {
        device([
            (.stationary, home, 420), (.walking, home, 2), (.stationary, home, 20), (.walking, home, 30),
            (.stationary, home, getUp - 472), (.walking, home, 2), (.stationary, home, 1440 + 420 - getUp - 2),
        ])
    }

    @Test("getting up at a meal time after a long still stay ends a meal of about half an hour; at another time it is no meal")
    func mealEndedByGettingUp() throws {
        let lunch = try OfflineTimeline.days(stillMorning(getUp: 13 * 60 + 10), timeZone: zone)
        let meal = try slot(at: "2026-11-18 12:50:00", in: lunch)
        #expect(meal.category == .food)
        // The 35 minutes before the stay ends (with the walk too short to be a slot of its own).
        #expect(meal.start == utc("2026-11-18 12:37:00"))
        #expect(meal.end == utc("2026-11-18 13:12:00"))
        #expect(try slot(at: "2026-11-18 11:00:00", in: lunch).category != .food)

        let afternoon = try OfflineTimeline.days(stillMorning(getUp: 15 * 60 + 40), timeZone: zone)
        let day = afternoon.flatMap(\.slots).filter { $0.end > utc("2026-11-18 08:00:00") && $0.start < utc("2026-11-18 15:40:00") }
        #expect(!day.contains { $0.category == .food })
    }

    @Test("a stay begun and ended by getting up at a meal time is the meal, not the end of a later still stay")
    func mealBegunByGettingUpWins() throws {
        let days = try OfflineTimeline.days(device([
            (.stationary, home, 420), (.walking, home, 2), (.stationary, home, 20), (.walking, home, 30),
            (.stationary, home, 248), (.walking, home, 2), (.stationary, home, 40), (.walking, home, 2),
            (.stationary, home, 76), (.walking, home, 2), (.stationary, home, 600),
        ]), timeZone: zone)
        #expect(try slot(at: "2026-11-18 12:20:00", in: days).category == .food)
        #expect(try slot(at: "2026-11-18 13:40:00", in: days).category != .food)
    }
}
