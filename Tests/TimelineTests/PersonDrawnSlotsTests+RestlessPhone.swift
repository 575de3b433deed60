import Foundation
@testable import GuardianTimeline
import Testing

/// A phone picked up every few minutes at home shows no meals by its walks (`SlotContext.restlessAtHome`).
extension PersonDrawnSlotsTests {
    /// Two-minute walks each evening at 17:40 and 18:15 (a stay of a meal's length between them),
    /// then pauses of a few minutes between walks at 18:15 and 18:21, 18:40 and 18:50, and stays
    /// of a quarter hour until 19:25.
    static let restlessEvening: [Double] = [7 * 60, 17 * 60 + 40, 18 * 60 + 15, 18 * 60 + 21, 18 * 60 + 40, 18 * 60 + 50, 19 * 60 + 7, 19 * 60 + 25]

    @Test("a phone picked up every few minutes all evening: dinner at the usual 19:00, not the stay between two of its walks at 17:40")
    func restlessPhoneDinnerAtItsTime() throws {
        let days = try OfflineTimeline.days(daysAtHome { _ in Self.restlessEvening }, timeZone: zone)
        for day in ["2026-11-18", "2026-11-19", "2026-11-20"] {
            let dinner = try slot(at: "\(day) 19:00:00", in: days)
            #expect(dinner.category == .food && dinner.start == utc("\(day) 18:52:00") && dinner.end == utc("\(day) 19:27:00"), "\(dinner)")
            #expect(try slot(at: "\(day) 17:50:00", in: days).category == .leisure)
        }

        // Without the pauses the walks show the meal: the stay between 17:40 and 18:15 is dinner.
        let calmEvening: [Double] = [7 * 60, 17 * 60 + 40, 18 * 60 + 15, 19 * 60 + 25]
        let calm = try OfflineTimeline.days(daysAtHome { _ in calmEvening }, timeZone: zone)
        #expect(try slot(at: "2026-11-19 17:50:00", in: calm).category == .food)
    }

    @Test("a restless phone's person at the gym from 18:20 to 19:50, home at 20:00: dinner on coming home")
    func restlessPhoneDinnerAfterTheGym() throws {
        // Wednesday at home with pauses of a few minutes between walks in the afternoon, then the gym;
        // home at 20:00, walks at 20:09 and 20:35 (the walk up from the table is the meal's).
        let days = try OfflineTimeline.days(device([
            (.stationary, home, 900), (.walking, home, 2), (.stationary, home, 4), (.walking, home, 2), (.stationary, home, 22), (.walking, home, 2),
            (.stationary, home, 3), (.walking, home, 2), (.stationary, home, 163), (.walking, home, 1), (.automotive, gymPlace, 8), (.walking, gymPlace, 1),
            (.stationary, gymPlace, 80), (.walking, gymPlace, 1), (.automotive, home, 8), (.walking, home, 1), (.stationary, home, 9), (.walking, home, 2),
            (.stationary, home, 24), (.walking, home, 2), (.stationary, home, 143), (.walking, home, 2), (.stationary, home, 478),
        ]), timeZone: zone)
        let dinner = try slot(at: "2026-11-18 20:15:00", in: days)
        #expect(dinner.category == .food, "\(dinner)")
        #expect(dinner.start == utc("2026-11-18 20:00:00") && dinner.end == utc("2026-11-18 20:37:00"), "\(dinner)")
        #expect(try slot(at: "2026-11-18 21:30:00", in: days).category == .leisure)
    }
}
