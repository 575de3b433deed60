import Foundation
@testable import GuardianTimeline
import Testing

/// A break at work or school the phone shows by getting up before and after it: a meal when it
/// comes at the time one would eat there.
extension PersonDrawnSlotsTests {
    /// A child's first school day from 07:48 to 16:20, up for two-minute walks at each of `walks`
    /// (local minutes), home at 16:40 and asleep from 20:32.
    func schoolDay(walks: [Double]) -> OfflineTimeline.DeviceEvents {
        var pieces: [(MotionActivity, GeoPoint, Double)] = [(.stationary, home, 430), (.walking, home, 2), (.stationary, home, 20), (.walking, home, 16)]
        var now = 468.0
        for walk in walks + [16 * 60 + 20] {
            pieces += [(.stationary, school, walk - now), (.walking, school, walk == 16 * 60 + 20 ? 20 : 2)]
            now = walk + 2
        }
        return device(pieces + [(.stationary, home, 232), (.walking, home, 2), (.stationary, home, 1440 - 20 * 60 - 34 + 420)])
    }

    @Test("a school day's 18 minutes between two walks at 10:21 is school, not lunch; between walks at 12:40 and 13:12, lunch")
    func morningBreakAtSchool() throws {
        let morning = try OfflineTimeline.days(schoolDay(walks: [10 * 60 + 21, 10 * 60 + 41]), timeZone: zone)
        #expect(try slot(at: "2026-11-18 10:32:00", in: morning).category == .work)
        #expect(morning.flatMap(\.slots).filter { $0.category == .food && $0.start > utc("2026-11-18 08:00:00") && $0.end < utc("2026-11-18 16:30:00") }.isEmpty)

        let lunch = try OfflineTimeline.days(schoolDay(walks: [10 * 60 + 21, 10 * 60 + 41, 12 * 60 + 40, 13 * 60 + 12]), timeZone: zone)
        #expect(try slot(at: "2026-11-18 10:32:00", in: lunch).category == .work)
        #expect(try slot(at: "2026-11-18 12:55:00", in: lunch).category == .food)
    }

    @Test("an early shift from 05:37 breaks mid-morning: half an hour between walks at 09:58 and 10:30 is a meal")
    func earlyShiftBreak() throws {
        let days = try OfflineTimeline.days(device([
            (.stationary, home, 290), (.walking, home, 2), (.stationary, home, 15), (.walking, home, 2), (.automotive, home, 25), (.walking, office, 3),
            (.stationary, office, 261), (.walking, office, 2), (.stationary, office, 30), (.walking, office, 2), (.stationary, office, 208),
            (.walking, office, 3), (.automotive, office, 25), (.walking, home, 3), (.stationary, home, 600),
        ]), timeZone: zone)
        #expect(try slot(at: "2026-11-18 08:00:00", in: days).category == .work)
        #expect(try slot(at: "2026-11-18 10:15:00", in: days).category == .food)
        #expect(try slot(at: "2026-11-18 12:00:00", in: days).category == .work)
    }

    /// 400 m south of the office: a place of its own, not the office's.
    var bistro: GeoPoint { GeoPoint(lat: office.lat - 400 / 111_195.0, lon: office.lon) }

    /// A first weekday at the office from 08:30, up for two-minute walks at 09:43, 10:25, 11:35,
    /// 12:17 and 12:37, a six-minute one about the place at 11:05; from 12:37 lunch at the bistro
    /// 12:41 to 13:16 (with `bistroLunch`), else at the desk 12:39 to 13:18; the office until
    /// 17:30, and home.
    func officeDayParted(bistroLunch: Bool) -> OfflineTimeline.DeviceEvents {
        let lunch: [(MotionActivity, GeoPoint, Double)] = bistroLunch
            ? [(.walking, office, 4), (.stationary, bistro, 35), (.walking, bistro, 4)] : [(.walking, office, 2), (.stationary, office, 39), (.walking, office, 2)]
        return device([
            (.stationary, home, 475), (.walking, home, 3), (.automotive, home, 29), (.walking, office, 3),
            (.stationary, office, 73), (.walking, office, 2), (.stationary, office, 40), (.walking, office, 2), (.stationary, office, 38),
            (.walking, office, 6), (.stationary, office, 24), (.walking, office, 2), (.stationary, office, 40), (.walking, office, 2),
            (.stationary, office, 18),
        ] + lunch + [
            (.stationary, office, 250), (.walking, office, 3), (.automotive, office, 28), (.walking, home, 3),
            (.stationary, home, 180), (.walking, home, 2), (.stationary, home, 500),
        ])
    }

    @Test("a working day from 08:30 parted by a walk about the office at 11:05 still goes through lunch: 40 minutes between walks at 09:43 and 10:25 is work, no break at ten")
    func dayPartedByAWalk() throws {
        let days = try OfflineTimeline.days(officeDayParted(bistroLunch: false), timeZone: zone)
        #expect(try slot(at: "2026-11-18 10:05:00", in: days).category == .work)
        let morning = utc("2026-11-18 08:30:00")..<utc("2026-11-18 11:30:00")
        #expect(days.flatMap(\.slots).filter { $0.category == .food && morning.overlaps($0.start..<$0.end) }.isEmpty)
        #expect(try slot(at: "2026-11-18 15:00:00", in: days).category == .work)
    }

    @Test("on a working day with lunch at a bistro 400 m off from 12:41, no stay at the office between walks is lunch too")
    func noBreakBesideALunchOut() throws {
        let days = try OfflineTimeline.days(officeDayParted(bistroLunch: true), timeZone: zone)
        #expect(try slot(at: "2026-11-18 10:05:00", in: days).category == .work)
        #expect(try slot(at: "2026-11-18 11:55:00", in: days).category == .work)
        #expect(try slot(at: "2026-11-18 13:00:00", in: days).category == .food)
    }
}
