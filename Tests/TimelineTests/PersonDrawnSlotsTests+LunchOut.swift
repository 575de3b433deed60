import Foundation
@testable import GuardianTimeline
import Testing

/// A lunch out down the road from the office is its own slot however near (inside the office's
/// place) and however long the walks there and back (five minutes each is a slot of its own).
extension PersonDrawnSlotsTests {
    /// A first weekday at the office from 07:21, out to the café at 11:41 (`walk` minutes each way,
    /// `lunch` minutes there), back at the office for `afternoon` minutes, the evening and night at home.
    func officeDayWithLunchOut(walk: Double, lunch: Double, afternoon: Double) -> OfflineTimeline.DeviceEvents {
        device([
            (.stationary, home, 410), (.walking, home, 3), (.automotive, home, 25), (.walking, office, 3),
            (.stationary, office, 260), (.walking, office, walk), (.stationary, cafe, lunch), (.walking, cafe, walk),
            (.stationary, office, afternoon), (.walking, office, 3), (.automotive, office, 28), (.walking, home, 3),
            (.stationary, home, 180), (.walking, home, 2), (.stationary, home, 500),
        ])
    }

    @Test("a café 200 m from the office, five minutes' walk each way at midday, is lunch, not work")
    func lunchOutWalkedTo() throws {
        let days = try OfflineTimeline.days(officeDayWithLunchOut(walk: 5, lunch: 32, afternoon: 255), timeZone: zone)
        let lunch = try slot(at: "2026-11-18 12:00:00", in: days)
        #expect(lunch.category == .food)
        #expect(lunch.end - lunch.start < 45 * minute)
        #expect(try slot(at: "2026-11-18 10:00:00", in: days).category == .work)
        #expect(try slot(at: "2026-11-18 15:00:00", in: days).category == .work)
    }
}
