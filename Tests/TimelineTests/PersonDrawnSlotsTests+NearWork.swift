import Foundation
@testable import GuardianTimeline
import Testing

/// A stay at another place between two stays at work, walked to and back, is more of the working
/// day (another building); one of a meal's length at lunch time is left a lunch out.
extension PersonDrawnSlotsTests {
    /// 400 m north of the office: another building.
    var annex: GeoPoint { GeoPoint(lat: office.lat + 400 / 111_195.0, lon: office.lon) }

    /// A first weekday at the office from 07:21, lunch at the café from 12:05 to 12:35, then from
    /// `away` (local minutes) `minutes` in the annex, walked to and back in four minutes, the
    /// office until 17:30, and home.
    func officeDayWithAnnex(at away: Double, minutes: Double) -> OfflineTimeline.DeviceEvents {
        device([
            (.stationary, home, 410), (.walking, home, 3), (.automotive, home, 25), (.walking, office, 3),
            (.stationary, office, 279), (.walking, office, 5), (.stationary, cafe, 30), (.walking, cafe, 5),
            (.stationary, office, away - 760), (.walking, office, 4), (.stationary, annex, minutes), (.walking, annex, 4),
            (.stationary, office, 1050 - away - minutes - 8), (.walking, office, 3), (.automotive, office, 28), (.walking, home, 3),
            (.stationary, home, 180), (.walking, home, 2), (.stationary, home, 500),
        ])
    }

    @Test("70 minutes in another building 400 m from the office at 15:00, walked to and back, is work; lunch at the café stays lunch")
    func anotherBuilding() throws {
        let days = try OfflineTimeline.days(officeDayWithAnnex(at: 15 * 60, minutes: 70), timeZone: zone)
        let annex = try slot(at: "2026-11-18 15:40:00", in: days)
        #expect(annex.category == .work)
        #expect(try slot(at: "2026-11-18 12:20:00", in: days).category == .food)
        #expect(try slot(at: "2026-11-18 10:00:00", in: days).category == .work)
    }

    @Test("35 minutes there from 14:35 is a late lunch's length at lunch time: not taken for work")
    func lateLunchNotWork() throws {
        let days = try OfflineTimeline.days(officeDayWithAnnex(at: 14 * 60 + 35, minutes: 35), timeZone: zone)
        #expect(try slot(at: "2026-11-18 14:55:00", in: days).category != .work)
        #expect(try slot(at: "2026-11-18 16:00:00", in: days).category == .work)
    }
}
