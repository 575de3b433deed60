import Foundation
@testable import GuardianTimeline
import Testing

/// A short walk from a place back to the same place (a ward round, across the office) is moving
/// about it: the slot goes on through it, no commute in the middle of the day's work.
extension PersonDrawnSlotsTests {
    @Test("walks about the workplace, away from nowhere, are part of the work, not commutes")
    func roundsAtWork() throws {
        let work = GeoPoint(lat: 52.5200 + 1_500 / 111_195.0, lon: 13.4050)
        let pieces: [(MotionActivity, GeoPoint, Double)] = [
            (.stationary, home, 420), (.walking, home, 2), (.stationary, home, 60), (.walking, home, 18),  // to work by 08:20
            (.stationary, work, 100), (.walking, work, 7), (.stationary, work, 90), (.walking, work, 6),  // rounds at 10:00 and 11:37
            (.stationary, work, 240), (.walking, work, 18), (.stationary, home, 600),  // home from 15:43 on
        ]
        let days = try OfflineTimeline.days(device(pieces), timeZone: zone)
        for instant in ["2026-11-18 10:03:00", "2026-11-18 11:40:00"] {
            #expect(try slot(at: instant, in: days).category == .work, "\(instant)")
        }
        let day = try slot(at: "2026-11-18 12:00:00", in: days)
        #expect(day.start == utc("2026-11-18 08:20:00") && day.end == utc("2026-11-18 15:43:00"))
        // Leaving for home and coming in are still the commutes they were.
        #expect(try slot(at: "2026-11-18 08:10:00", in: days).category == .commute)
        #expect(try slot(at: "2026-11-18 15:50:00", in: days).category == .commute)
    }
}
