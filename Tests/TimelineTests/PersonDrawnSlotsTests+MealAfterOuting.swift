import Foundation
@testable import GuardianTimeline
import Testing

/// No meal in a brief time at home before going out again and back by dinner's end
/// (`SlotContext.beforeGoingOutAgain`).
extension PersonDrawnSlotsTests {
    /// Wednesday: a day at the office, home by car at 18:04, out again by car at 18:40 to the gym,
    /// `atGym` minutes there from 18:51, and home by car (after 50 minutes there, at 19:52).
    func officeDayThenGym(atGym: Double = 50) -> [(MotionActivity, GeoPoint, Double)] {
        [
            (.stationary, home, 420), (.walking, home, 2), (.stationary, home, 30), (.walking, home, 3), (.automotive, home, 25),
            (.walking, office, 2), (.stationary, office, 568), (.walking, office, 2), (.automotive, office, 30), (.walking, home, 2),
            (.stationary, home, 36), (.walking, home, 2), (.automotive, home, 8), (.walking, gymPlace, 1), (.stationary, gymPlace, atGym),
            (.walking, gymPlace, 1), (.automotive, gymPlace, 8), (.walking, home, 2),
        ]
    }

    @Test("home at 18:04, off to the gym at 18:40 and back at 19:52: dinner is on coming back, not in the half hour before going")
    func dinnerAfterTheGym() throws {
        let back = 19 * 60 + 52.0
        let days = try OfflineTimeline.days(device(officeDayThenGym() + [(.stationary, home, 23 * 60 - back), (.walking, home, 2), (.stationary, home, 478)]), timeZone: zone)
        #expect(try slot(at: "2026-11-18 18:20:00", in: days).category != .food)
        let dinner = try slot(at: "2026-11-18 20:05:00", in: days)
        #expect(dinner.category == .food && dinner.start == utc("2026-11-18 19:52:00"), "\(dinner)")
        // Back after dinner's window (at 21:12): the half hour before going may be dinner.
        let late = try OfflineTimeline.days(device(officeDayThenGym(atGym: 130) + [(.stationary, home, 108), (.walking, home, 2), (.stationary, home, 478)]), timeZone: zone)
        #expect(try slot(at: "2026-11-18 18:20:00", in: late).category == .food)
    }
}
