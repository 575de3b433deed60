import Foundation
@testable import GuardianTimeline
import Testing

/// Work at home: a weekday's working hours at home, for someone with no place of work elsewhere.
extension PersonDrawnSlotsTests {
    /// Wednesday at home with the phone on a table from 07:02 to 17:02 (or out for a walk from
    /// 09:40 to 10:50), the evening at home (dinner at the usual 19:00), in bed at 22:06.
    func dayAtHome(walkOut: Bool) -> OfflineTimeline.DeviceEvents {
        var pieces: [(MotionActivity, GeoPoint, Double)] = [(.stationary, home, 420), (.walking, home, 2)]
        pieces += walkOut ? [(.stationary, home, 158), (.walking, home, 70), (.stationary, home, 372)] : [(.stationary, home, 600)]
        pieces += [(.walking, home, 2), (.stationary, home, 300), (.walking, home, 2), (.stationary, home, 540)]
        return device(pieces)
    }

    @Test("a first weekday at home through working hours is work from 09:00, the evening free time; a morning out makes it a day off")
    func workAtHome() throws {
        let days = try OfflineTimeline.days(dayAtHome(walkOut: false), timeZone: zone)
        let work = try slot(at: "2026-11-18 10:00:00", in: days)
        #expect(work.category == .work)
        #expect(work.start == utc("2026-11-18 09:00:00"))
        #expect(try slot(at: "2026-11-18 15:00:00", in: days).category == .work)
        #expect(try slot(at: "2026-11-18 08:00:00", in: days).category == .leisure)
        #expect(try slot(at: "2026-11-18 20:00:00", in: days).category == .leisure)
        #expect(try slot(at: "2026-11-19 03:00:00", in: days).category == .sleep)

        let dayOff = try OfflineTimeline.days(dayAtHome(walkOut: true), timeZone: zone)
        #expect(try slot(at: "2026-11-18 15:00:00", in: dayOff).category == .leisure)
        #expect(!dayOff.flatMap(\.slots).contains { $0.category == .work })
    }

    @Test("up only at 09:57, the phone still on the table: two hours of the working morning at home are enough for a day of work")
    func lateStartAtHome() throws {
        let days = try OfflineTimeline.days(device([
            (.stationary, home, 597), (.walking, home, 2), (.stationary, home, 423), (.walking, home, 2), (.stationary, home, 300),
            (.walking, home, 2), (.stationary, home, 540),
        ]), timeZone: zone)
        #expect(try slot(at: "2026-11-18 14:00:00", in: days).category == .work)
        #expect(try slot(at: "2026-11-18 20:00:00", in: days).category == .leisure)
    }

    @Test("with a place of work away from home, a day at home is no work")
    func dayOffWithAnOffice() throws {
        var pieces: [(MotionActivity, GeoPoint, Double)] = [(.stationary, home, 420), (.walking, home, 2)]
        pieces += [(.automotive, home, 25), (.walking, office, 3), (.stationary, office, 540), (.walking, office, 3), (.automotive, office, 25)]
        pieces += [(.walking, home, 2), (.stationary, home, 300), (.walking, home, 2), (.stationary, home, 560)]
        // Thursday at home all day, the phone on a table.
        pieces += [(.walking, home, 2), (.stationary, home, 600), (.walking, home, 2), (.stationary, home, 300), (.walking, home, 2), (.stationary, home, 540)]
        let days = try OfflineTimeline.days(device(pieces), timeZone: zone)
        #expect(try slot(at: "2026-11-18 12:00:00", in: days).category == .work)
        #expect(try slot(at: "2026-11-19 12:00:00", in: days).category == .leisure)
    }

    /// Wednesday to Monday at home, the phone on a table: up at 07:00 (420), lunch from 12:30 to
    /// 13:10, dinner from 19:00 to 19:35; up from the desk at 17:40, but on Thursday at 17:32; and
    /// on the days in `desk` (0 the first) also sitting down at the desk at 08:30 (a walk from 08:28).
    func weekAtHome(desk: Set<Int>) -> OfflineTimeline.DeviceEvents {
        daysAtHome(6) { day in
            let upFromDesk: Double = day == 1 ? 1052 : 1060
            let sitDown: [Double] = desk.contains(day) ? [508] : []
            return [420] + sitDown + [750, 790, upFromDesk, 1140, 1175]
        }
    }

    @Test("working at home: from sitting down at the desk at 08:30 to getting up at 17:32; at 08:30 on a day that shows no start, once three days showed it")
    func ownWorkStart() throws {
        let days = try OfflineTimeline.days(weekAtHome(desk: [0, 1, 2]), timeZone: zone)
        for day in ["18", "19", "20"] {
            let work = try slot(at: "2026-11-\(day) 08:40:00", in: days)
            #expect(work.category == .work)
            #expect(work.start == utc("2026-11-\(day) 08:30:00"))
        }
        // Monday shows no start: the person's own, to the quarter hour.
        let monday = try slot(at: "2026-11-23 08:40:00", in: days)
        #expect(monday.category == .work)
        #expect(monday.start == utc("2026-11-23 08:30:00"))
        #expect(try slot(at: "2026-11-23 08:20:00", in: days).category == .leisure)
        // Up from the desk at 17:32 ends the working day there; at 17:40, working hours end at 17:00.
        let thursday = try slot(at: "2026-11-19 17:10:00", in: days)
        #expect(thursday.category == .work)
        #expect(abs(thursday.end - utc("2026-11-19 17:32:00")) <= 2 * 60_000)
        #expect(try slot(at: "2026-11-20 17:10:00", in: days).category == .leisure)

        let tooFew = try OfflineTimeline.days(weekAtHome(desk: [0, 1]), timeZone: zone)
        #expect(try slot(at: "2026-11-23 08:40:00", in: tooFew).category == .leisure)
        let usual = try slot(at: "2026-11-23 09:10:00", in: tooFew)
        #expect(usual.category == .work)
        #expect(usual.start == utc("2026-11-23 09:00:00"))
    }
}
