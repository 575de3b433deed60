import Foundation
@testable import GuardianTimeline
import Testing

/// A walk from home back home with no stop on the way but a rest is the walk itself (leisure),
/// not getting somewhere, however short each part of it; so is a walk about a park with stops.
extension PersonDrawnSlotsTests {
    /// 1.2 km north of home: a bench in a park.
    var bench: GeoPoint { GeoPoint(lat: 52.5200 + 1_200 / 111_195.0, lon: 13.4050) }

    /// Saturday: up at 08:00, out at 10:00 for `out` minutes' walk, `stop` minutes at the bench (or a
    /// friend's there), `back` minutes' walk home, then home until the night.
    func walkOut(out: Double, stop: Double, back: Double) -> OfflineTimeline.DeviceEvents {
        device([
            (.stationary, home, 480), (.walking, home, 2), (.stationary, home, 118), (.walking, home, out),
            (.stationary, bench, stop), (.walking, bench, back), (.stationary, home, 1440 + 420 - 600 - out - stop - back),
        ], from: "2026-11-21 00:00:00")
    }

    @Test("20 minutes' walk, 6 on a bench and 20 back home is a walk out, leisure from leaving to coming home; 40 minutes at a friend's is a visit, walked to and back")
    func walkOutWithARest() throws {
        let stroll = try OfflineTimeline.days(walkOut(out: 20, stop: 6, back: 20), timeZone: zone)
        for time in ["10:10", "10:23", "10:35"] {
            #expect(try slot(at: "2026-11-21 \(time):00", in: stroll).category == .leisure, "at \(time)")
        }
        let visit = try OfflineTimeline.days(walkOut(out: 20, stop: 40, back: 20), timeZone: zone)
        #expect(try slot(at: "2026-11-21 10:10:00", in: visit).category == .commute)
        #expect(try slot(at: "2026-11-21 11:10:00", in: visit).category == .commute)
    }

    @Test("an hour and three quarters walked from home to a park and about it, stopping three times for ten to twenty-five minutes, and home: leisure throughout")
    func walkInAParkWithStops() throws {
        let park = GeoPoint(lat: bench.lat + 300 / 111_195.0, lon: bench.lon)
        let days = try OfflineTimeline.days(device([
            (.stationary, home, 480), (.walking, home, 2), (.stationary, home, 118), (.walking, home, 15),  // out at 10:00
            (.stationary, bench, 10), (.walking, bench, 15), (.stationary, park, 25), (.walking, park, 15), (.stationary, bench, 10),
            (.walking, bench, 15), (.stationary, home, 1440 + 420 - 600 - 105),  // home at 11:45
        ], from: "2026-11-21 00:00:00"), timeZone: zone)
        for time in ["10:05", "10:20", "10:30", "10:45", "11:05", "11:20", "11:40"] {
            #expect(try slot(at: "2026-11-21 \(time):00", in: days).category == .leisure, "at \(time)")
        }
    }
}
