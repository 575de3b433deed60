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

    @Test("a round of the ward of a quarter hour or more, back to where it began, is part of the shift; the same walk from home and back is a walk")
    func longRoundsAtWork() throws {
        let ward = GeoPoint(lat: 52.5200 + 5_000 / 111_195.0, lon: 13.4050)
        let pieces: [(MotionActivity, GeoPoint, Double)] = [
            (.stationary, home, 420), (.walking, home, 2), (.stationary, home, 60), (.walking, home, 3), (.automotive, home, 15),  // at work by 08:20
            (.stationary, ward, 100), (.walking, ward, 20), (.stationary, ward, 90), (.walking, ward, 25),  // rounds at 10:00 and 11:50
            (.stationary, ward, 240), (.walking, ward, 3), (.automotive, ward, 15),  // driving home at 16:18
            (.stationary, home, 100), (.walking, home, 20), (.stationary, home, 500),  // a walk round the block at 18:13
        ]
        let days = try OfflineTimeline.days(device(pieces), timeZone: zone)
        for instant in ["2026-11-18 10:10:00", "2026-11-18 12:00:00"] {
            #expect(try slot(at: instant, in: days).category == .work, "\(instant)")
        }
        let shift = try slot(at: "2026-11-18 13:00:00", in: days)
        #expect(shift.start == utc("2026-11-18 08:20:00") && shift.end == utc("2026-11-18 16:18:00"), "\(shift)")
        // At home, twenty minutes out and back is a walk of its own.
        let walk = try slot(at: "2026-11-18 18:20:00", in: days)
        #expect(walk.start == utc("2026-11-18 18:13:00") && walk.end == utc("2026-11-18 18:33:00"), "\(walk)")
        #expect(walk.category != .sleep)
    }

    @Test("a round of the ward the data parts in two walks (a stop of three minutes between them), 25 minutes in all: part of the shift")
    func roundInTwoWalks() throws {
        let ward = GeoPoint(lat: 52.5200 + 5_000 / 111_195.0, lon: 13.4050)
        let corridor = GeoPoint(lat: ward.lat + 60 / 111_195.0, lon: ward.lon)
        let pieces: [(MotionActivity, GeoPoint, Double)] = [
            (.stationary, home, 420), (.walking, home, 2), (.stationary, home, 60), (.walking, home, 3), (.automotive, home, 15),  // at work by 08:20
            (.stationary, ward, 100), (.walking, corridor, 12), (.stationary, corridor, 3), (.walking, ward, 10),  // a round at 10:00
            (.stationary, ward, 300), (.walking, ward, 3), (.automotive, ward, 15), (.stationary, home, 500),
        ]
        let days = try OfflineTimeline.days(device(pieces), timeZone: zone)
        for instant in ["2026-11-18 10:05:00", "2026-11-18 10:20:00"] {
            #expect(try slot(at: instant, in: days).category == .work, "\(instant)")
        }
    }
}
