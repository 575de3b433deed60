import Foundation
@testable import GuardianTimeline
import Testing

/// Shift work: a nap before a night shift (an afternoon lying still at home before a night awake
/// elsewhere), but none after a day's sleep, and meals around the shifts.
extension PersonDrawnSlotsTests {
    /// Wednesday at home until 20:18: the night, the morning up, lunch, still from 13:16 to 17:46, the evening.
    var dayUntilTheShift: [(MotionActivity, GeoPoint, Double)] {
        [
            (.stationary, home, 450), (.walking, home, 2), (.stationary, home, 300), (.walking, home, 2), (.stationary, home, 40),
            (.walking, home, 2), (.stationary, home, 270), (.walking, home, 2), (.stationary, home, 150),
        ]
    }

    /// The drive from home to a shift at the office: 31 minutes.
    var driveToTheShift: [(MotionActivity, GeoPoint, Double)] { [(.walking, home, 3), (.automotive, home, 25), (.walking, office, 3)] }

    /// The drive home from `place` after a shift, and seven hours in bed.
    func driveHomeToBed(from place: GeoPoint) -> [(MotionActivity, GeoPoint, Double)] {
        [(.automotive, place, 25), (.walking, home, 2), (.stationary, home, 420)]
    }

    /// `day` at home (`dayUntilTheShift` unless given), then a drive to a night at the office, walking
    /// about it every two and a half hours, and home 10 h 10 min after leaving (at 07:28 after `dayUntilTheShift`).
    func nightShiftUntilHome(after day: [(MotionActivity, GeoPoint, Double)]? = nil) -> [(MotionActivity, GeoPoint, Double)] {
        var pieces = (day ?? dayUntilTheShift) + driveToTheShift
        for _ in 0..<4 { pieces += [(.stationary, office, 150), (.walking, office, 3)] }
        return pieces + [(.automotive, office, 25), (.walking, home, 2)]
    }

    /// Wednesday: the night at home, the morning up, lunch, still from 13:16 to 17:46, the
    /// evening at home, then (`nightShift`) a drive at 20:18 to a night at the office, walking
    /// about it every two and a half hours, home at 07:30 to bed; else the night at home.
    func dayBeforeANight(nightShift: Bool) -> OfflineTimeline.DeviceEvents {
        device(nightShift ? nightShiftUntilHome() + [(.stationary, home, 420)] : dayUntilTheShift + [(.walking, home, 2), (.stationary, home, 600)])
    }

    @Test("an afternoon still at home before a night shift is a nap; before a night at home it is no sleep")
    func napBeforeANightShift() throws {
        let shift = try OfflineTimeline.days(dayBeforeANight(nightShift: true), timeZone: zone)
        #expect(try slot(at: "2026-11-18 15:00:00", in: shift).category == .sleep)
        #expect(try slot(at: "2026-11-18 19:00:00", in: shift).category != .sleep)
        #expect(try slot(at: "2026-11-18 10:00:00", in: shift).category != .sleep)

        let home = try OfflineTimeline.days(dayBeforeANight(nightShift: false), timeZone: zone)
        // Work at home, for someone with no place of work elsewhere: awake.
        #expect(try slot(at: "2026-11-18 15:00:00", in: home).category != .sleep)
    }

    @Test("a night on a ward, walking rounds of a quarter hour every forty minutes, is a night shift: the still afternoon before it is a nap")
    func napBeforeANightOfRounds() throws {
        var pieces = dayUntilTheShift + driveToTheShift
        for _ in 0..<15 { pieces += [(.stationary, office, 25), (.walking, office, 15)] }
        pieces += driveHomeToBed(from: office)
        let days = try OfflineTimeline.days(device(pieces), timeZone: zone)
        #expect(try slot(at: "2026-11-18 15:00:00", in: days).category == .sleep)
        #expect(try slot(at: "2026-11-18 19:00:00", in: days).category != .sleep)
    }

    @Test("a night on the wards with a 40-minute round at midnight and the small hours in another building 400 m away is a night shift: the still afternoon before it is a nap")
    func napBeforeANightInTwoBuildings() throws {
        let annex = GeoPoint(lat: office.lat + 400 / 111_195.0, lon: office.lon)
        var pieces = dayUntilTheShift + driveToTheShift  // on the ward at 20:49
        pieces += [(.stationary, office, 150), (.walking, office, 3), (.stationary, office, 40)]
        pieces += [(.walking, office, 40), (.stationary, office, 60), (.walking, office, 5)]  // the round from 00:02, the annex at 01:47
        for _ in 0..<2 { pieces += [(.stationary, annex, 150), (.walking, annex, 3)] }
        pieces += driveHomeToBed(from: annex)
        let days = try OfflineTimeline.days(device(pieces), timeZone: zone)
        #expect(try slot(at: "2026-11-18 15:00:00", in: days).category == .sleep)
        #expect(try slot(at: "2026-11-18 19:00:00", in: days).category != .sleep)
        #expect(try slot(at: "2026-11-19 03:00:00", in: days).category != .sleep)
    }

    @Test("a device's first file, of a night nurse: more time on the ward than at home, but home is where they sleep; also when the phone shows the rounds only as getting up, resting at home and never on the ward", arguments: [false, true])
    func homeIsWhereTheySleep(roundsUnseen: Bool) throws {
        let ward = GeoPoint(lat: 52.5200 + 5_000 / 111_195.0, lon: 13.4050)
        // A round every forty minutes: five minutes' walking, or a minute's, which parts no stay.
        let round: [(MotionActivity, GeoPoint, Double)] = roundsUnseen ? [(.stationary, ward, 39), (.walking, ward, 1)] : [(.stationary, ward, 35), (.walking, ward, 5)]
        func rounds(_ count: Int) -> [(MotionActivity, GeoPoint, Double)] { Array(repeating: round, count: count).flatMap { $0 } }
        var pieces: [(MotionActivity, GeoPoint, Double)] = [(.stationary, home, 95), (.walking, home, 2), (.automotive, home, 20), (.walking, ward, 3)]
        pieces += rounds(17) + [(.stationary, ward, 10), (.walking, ward, 2), (.automotive, ward, 18), (.walking, home, 2)]  // home at 07:52
        pieces += [(.stationary, home, 28), (.walking, home, 2), (.stationary, home, 390)]  // asleep 08:22 to 14:52
        for _ in 0..<5 { pieces += [(.walking, home, 2), (.stationary, home, 58)] }
        pieces += [(.walking, home, 2), (.automotive, home, 20), (.walking, ward, 3)] + rounds(6)
        let days = try OfflineTimeline.days(device(pieces, from: "2026-11-17 18:00:00"), timeZone: zone)
        #expect(try slot(at: "2026-11-18 11:00:00", in: days).category == .sleep)
        #expect(try slot(at: "2026-11-18 02:00:00", in: days).category == .work)
        #expect(try slot(at: "2026-11-18 17:00:00", in: days).category != .work)
    }

    @Test("a night nurse's first day's sleep broken by a walk to the bathroom at 12:50, four and a half hours in: the two hours still after it are more of the sleep, the walk at 14:55 is getting up")
    func daySleepBrokenByAWalk() throws {
        let ward = GeoPoint(lat: 52.5200 + 5_000 / 111_195.0, lon: 13.4050)
        var pieces: [(MotionActivity, GeoPoint, Double)] = [(.stationary, home, 95), (.walking, home, 2), (.automotive, home, 20), (.walking, ward, 3)]
        pieces += Array(repeating: [(MotionActivity.stationary, ward, 35.0), (.walking, ward, 5)], count: 17).flatMap { $0 }
        pieces += [(.stationary, ward, 10), (.walking, ward, 2), (.automotive, ward, 18), (.walking, home, 2)]  // home at 07:52
        pieces += [(.stationary, home, 28), (.walking, home, 2), (.stationary, home, 268), (.walking, home, 2), (.stationary, home, 123)]  // asleep 08:22 to 14:55
        for _ in 0..<4 { pieces += [(.walking, home, 2), (.stationary, home, 58)] }
        let days = try OfflineTimeline.days(device(pieces, from: "2026-11-17 18:00:00"), timeZone: zone)
        #expect(try slot(at: "2026-11-18 11:00:00", in: days).category == .sleep)
        let after = try slot(at: "2026-11-18 14:00:00", in: days)
        #expect(after.category == .sleep && after.end <= utc("2026-11-18 14:57:00"))
        #expect(try slot(at: "2026-11-18 15:30:00", in: days).category != .sleep)
    }

    @Test("nights on a ward from Thursday, walked every forty minutes, after days off: each night is one working day, so the ward is work")
    func nightShiftsAfterDaysOff() throws {
        let ward = GeoPoint(lat: 52.5200 + 5_000 / 111_195.0, lon: 13.4050)
        let dayUp = Array(repeating: [(MotionActivity.walking, home, 2.0), (.stationary, home, 118)], count: 8).flatMap { $0 }  // 07:00 to 23:00
        // Monday to Wednesday off: nights asleep at home from 23:00 to 07:00.
        var pieces: [(MotionActivity, GeoPoint, Double)] = [(.stationary, home, 420)]
        for _ in 0..<3 { pieces += dayUp + [(.walking, home, 2), (.stationary, home, 478)] }
        // Thursday and Friday: up from 07:00 (or from a day's sleep), on the ward from 19:53 to 07:30
        // with a ten-minute round every forty minutes, home at 07:52 and asleep until 14:32.
        pieces += Array(dayUp.prefix(12)) + [(.walking, home, 2), (.stationary, home, 28)]
        for _ in 0..<2 {
            pieces += [(.automotive, home, 20), (.walking, ward, 3)]
            pieces += Array(repeating: [(.stationary, ward, 31), (.walking, ward, 10)], count: 17).flatMap { $0 }
            pieces += [(.automotive, ward, 20), (.walking, home, 2), (.stationary, home, 400)]
            pieces += Array(dayUp.prefix(8)) + [(.walking, home, 2), (.stationary, home, 56)]
        }
        pieces += [(.walking, home, 2), (.stationary, home, 600)]
        let days = try OfflineTimeline.days(device(pieces, from: "2026-11-16 00:00:00"), timeZone: zone)
        #expect(try slot(at: "2026-11-20 02:00:00", in: days).category == .work)
        #expect(try slot(at: "2026-11-21 02:00:00", in: days).category == .work)
        #expect(try slot(at: "2026-11-20 11:00:00", in: days).category == .sleep)
        #expect(try slot(at: "2026-11-17 02:00:00", in: days).category == .sleep)
    }

    @Test("a day's sleep after a night shift broken by a walk (the bathroom at 10:40) is one rest: 2¾ hours and 2½ hours")
    func daysSleepBrokenByAWalk() throws {
        // Home at 07:28, breakfast, asleep 07:55 to 10:40 and 10:42 to 13:12, then the afternoon up and about.
        let pieces = nightShiftUntilHome() + [
            (.stationary, home, 25), (.walking, home, 2), (.stationary, home, 165),
            (.walking, home, 2), (.stationary, home, 150), (.walking, home, 2), (.stationary, home, 90), (.walking, home, 2),
            (.stationary, home, 90), (.walking, home, 2), (.stationary, home, 114), (.walking, home, 2), (.stationary, home, 600),
        ]
        let days = try OfflineTimeline.days(device(pieces), timeZone: zone)
        #expect(try slot(at: "2026-11-19 09:00:00", in: days).category == .sleep)
        #expect(try slot(at: "2026-11-19 12:00:00", in: days).category == .sleep)
        #expect(try slot(at: "2026-11-19 15:00:00", in: days).category != .sleep)
    }

    @Test("on a device's first day, cut at midnight with the person at work since 20:49, the still afternoon is a nap")
    func napBeforeANightInProgress() throws {
        let pieces = dayUntilTheShift + driveToTheShift + [(.stationary, office, 191)]
        let days = try OfflineTimeline.days(device(pieces), timeZone: zone)
        #expect(try slot(at: "2026-11-18 23:00:00", in: days).category == .work)
        #expect(try slot(at: "2026-11-18 15:00:00", in: days).category == .sleep)
        #expect(try slot(at: "2026-11-18 19:30:00", in: days).category != .sleep)
    }

    @Test("after a day's sleep from a night shift, the still afternoon and evening before the next night shift are no rest and no nap")
    func noNapAfterADaysSleep() throws {
        // Home from a night at the office at 06:30, asleep until 14:00, up and about until 14:42,
        // the phone on a table until 17:30 and again from 17:32 until leaving at 21:00 for the
        // next night at the office; home at 08:10 to bed.
        var pieces: [(MotionActivity, GeoPoint, Double)] = [(.stationary, office, 360), (.walking, office, 3), (.automotive, office, 25), (.walking, home, 2)]
        pieces += [(.stationary, home, 450), (.walking, home, 2), (.stationary, home, 38), (.walking, home, 2), (.stationary, home, 168)]
        pieces += [(.walking, home, 2), (.stationary, home, 208)] + driveToTheShift
        for _ in 0..<4 { pieces += [(.stationary, office, 150), (.walking, office, 3)] }
        pieces += driveHomeToBed(from: office)
        let days = try OfflineTimeline.days(device(pieces), timeZone: zone)
        #expect(try slot(at: "2026-11-18 10:00:00", in: days).category == .sleep)
        #expect(try slot(at: "2026-11-18 16:00:00", in: days).category != .sleep)
        #expect(try slot(at: "2026-11-18 19:00:00", in: days).category != .sleep)
    }

    @Test("up at 14:00 from a day's sleep after a night shift, the evening still from 21:02 until the data ends at midnight is no night yet")
    func eveningAfterADaysSleep() throws {
        // Home from a night at the office at 06:30, asleep until 14:00, up and about, the phone on a table from 21:02.
        var pieces: [(MotionActivity, GeoPoint, Double)] = [(.stationary, office, 360), (.walking, office, 3), (.automotive, office, 25), (.walking, home, 2)]
        pieces += [(.stationary, home, 450), (.walking, home, 2), (.stationary, home, 418), (.walking, home, 2), (.stationary, home, 178)]
        let days = try OfflineTimeline.days(device(pieces), timeZone: zone)
        #expect(try slot(at: "2026-11-18 10:00:00", in: days).category == .sleep)
        #expect(try slot(at: "2026-11-18 22:00:00", in: days).category != .sleep)
        #expect(try slot(at: "2026-11-18 23:50:00", in: days).category != .sleep)
    }

    @Test("an evening still at home until the phone goes off before midnight is no day's rest")
    func stillEveningBeforeThePhoneGoesOff() throws {
        // A day at the office, home at 17:32, the phone on a table until it is switched off at 23:50.
        var pieces: [(MotionActivity, GeoPoint, Double)] = [(.stationary, home, 420), (.walking, home, 2), (.stationary, home, 40), (.walking, home, 3)]
        pieces += [(.automotive, home, 25), (.walking, office, 2), (.stationary, office, 240), (.walking, office, 50), (.stationary, office, 240)]
        pieces += [(.walking, office, 2), (.automotive, office, 25), (.walking, home, 3), (.stationary, home, 378)]
        let days = try OfflineTimeline.days(device(pieces), timeZone: zone)
        #expect(try slot(at: "2026-11-18 17:35:00", in: days).start == utc("2026-11-18 17:32:00"))
        #expect(try slot(at: "2026-11-18 19:00:00", in: days).category != .sleep)
    }

    @Test("the short stay after a long walk that follows the data's first night is no breakfast: the walk is no part of the night")
    func noBreakfastAfterAWalk() throws {
        let days = try OfflineTimeline.days(device([
            (.stationary, home, 480), (.walking, home, 150), (.stationary, home, 40), (.walking, home, 2), (.stationary, home, 768),
        ]), timeZone: zone)
        #expect(try slot(at: "2026-11-18 09:00:00", in: days).category != .sleep)
        #expect(try slot(at: "2026-11-18 10:50:00", in: days).category != .food)
    }

    @Test("the short stay after a nap is no breakfast: breakfast follows a night's rest")
    func noBreakfastAfterANap() throws {
        // Up at 07:30, a nap from 12:16 to 16:00 before a night at the office, then 45 minutes
        // up and the evening at home until leaving at 20:18.
        var pieces: [(MotionActivity, GeoPoint, Double)] = [
            (.stationary, home, 450), (.walking, home, 2), (.stationary, home, 240), (.walking, home, 2), (.stationary, home, 40),
            (.walking, home, 2), (.stationary, home, 224), (.walking, home, 2), (.stationary, home, 45), (.walking, home, 2), (.stationary, home, 209),
        ] + driveToTheShift
        for _ in 0..<4 { pieces += [(.stationary, office, 150), (.walking, office, 3)] }
        pieces += driveHomeToBed(from: office)
        let days = try OfflineTimeline.days(device(pieces), timeZone: zone)
        #expect(try slot(at: "2026-11-18 14:00:00", in: days).category == .sleep)
        let afterNap = try slot(at: "2026-11-18 16:20:00", in: days).category
        #expect(afterNap != .food && afterNap != .sleep)
    }

    @Test("home from a late shift at 22:27, the stay before bed is the evening; home from a night shift in the morning, it is breakfast")
    func biteBeforeBed() throws {
        let late = try OfflineTimeline.days(device([
            (.stationary, home, 480), (.walking, home, 2), (.stationary, home, 328), (.walking, home, 3), (.automotive, home, 25), (.walking, office, 2),
            (.stationary, office, 480), (.walking, office, 2), (.automotive, office, 25), (.walking, home, 2), (.stationary, home, 41),
            (.walking, home, 2), (.stationary, home, 480),
        ]), timeZone: zone)
        #expect(try slot(at: "2026-11-18 22:45:00", in: late).category != .food)
        #expect(try slot(at: "2026-11-19 03:00:00", in: late).category == .sleep)

        // Home from a night at the office at 06:30: twenty minutes, then to bed until 14:00.
        var pieces: [(MotionActivity, GeoPoint, Double)] = [(.stationary, office, 360), (.walking, office, 3), (.automotive, office, 25), (.walking, home, 2)]
        pieces += [(.stationary, home, 20), (.walking, home, 2), (.stationary, home, 448), (.walking, home, 2), (.stationary, home, 300), (.walking, home, 2), (.stationary, home, 600)]
        let morning = try OfflineTimeline.days(device(pieces), timeZone: zone)
        #expect(try slot(at: "2026-11-18 06:40:00", in: morning).category == .food)
    }
}

/// The ends of a night worker's naps and days' sleep.
extension PersonDrawnSlotsTests {
    /// A night on the ward from 20:00 after `pieces` at home from Wednesday midnight, walking about it
    /// every two and a half hours, home at 07:30 to bed.
    func beforeANightShift(_ pieces: [(MotionActivity, GeoPoint, Double)]) -> OfflineTimeline.DeviceEvents {
        device(nightShiftUntilHome(after: pieces) + [(.stationary, home, 420)])
    }

    @Test("before a night shift, two and a half hours still from 14:30 are a nap; a stillness ending as the person leaves is not, nor one begun in the morning")
    func shortNapBeforeTheShift() throws {
        // Up at 07:30, lunch, still from 14:32 to 17:02, up until leaving at 19:34.
        let nap = try OfflineTimeline.days(beforeANightShift([
            (.stationary, home, 450), (.walking, home, 2), (.stationary, home, 300), (.walking, home, 2), (.stationary, home, 40),
            (.walking, home, 2), (.stationary, home, 74), (.walking, home, 2), (.stationary, home, 150), (.walking, home, 2), (.stationary, home, 150),
        ]), timeZone: zone)
        #expect(try slot(at: "2026-11-18 15:30:00", in: nap).category == .sleep)
        #expect(try slot(at: "2026-11-18 18:30:00", in: nap).category != .sleep)

        // Still from 10:34 to 17:14 (a day on the sofa), then 17:16 to leaving at 19:36.
        let sofa = try OfflineTimeline.days(beforeANightShift([
            (.stationary, home, 450), (.walking, home, 2), (.stationary, home, 180), (.walking, home, 2), (.stationary, home, 400),
            (.walking, home, 2), (.stationary, home, 140),
        ]), timeZone: zone)
        #expect(try slot(at: "2026-11-18 18:30:00", in: sofa).category != .sleep)
        #expect(try slot(at: "2026-11-18 15:00:00", in: sofa).category != .sleep)
    }

    @Test("before a night shift, home from the shop at 11:22 and still until 17:02: lunch, then a nap from after it")
    func napAfterLunchOnComingHome() throws {
        let days = try OfflineTimeline.days(beforeANightShift([
            (.stationary, home, 450), (.walking, home, 2), (.stationary, home, 180), (.walking, home, 10), (.stationary, shop, 30),
            (.walking, shop, 10), (.stationary, home, 340), (.walking, home, 2), (.stationary, home, 150),
        ]), timeZone: zone)
        #expect(try slot(at: "2026-11-18 15:00:00", in: days).category == .sleep)
        #expect(try slot(at: "2026-11-18 16:50:00", in: days).category == .sleep)
        #expect(try slot(at: "2026-11-18 12:00:00", in: days).category != .sleep)
        #expect(try slot(at: "2026-11-18 18:30:00", in: days).category != .sleep)
    }

    @Test("home from a night shift at 07:28, breakfast, still from 07:55 to 09:35, a walk, then still until 15:07: asleep from 07:55, the walk got up in the day's sleep")
    func inBedByDay() throws {
        let days = try OfflineTimeline.days(device(nightShiftUntilHome() + [
            (.stationary, home, 25), (.walking, home, 2), (.stationary, home, 100), (.walking, home, 2), (.stationary, home, 330),
            (.walking, home, 2), (.stationary, home, 200), (.walking, home, 2), (.stationary, home, 600),
        ]), timeZone: zone)
        let sleep = try slot(at: "2026-11-19 08:30:00", in: days)
        #expect(sleep.category == .sleep)
        #expect(sleep.start == utc("2026-11-19 07:55:00"), "\(sleep)")
        #expect(try slot(at: "2026-11-19 07:40:00", in: days).category != .sleep)
    }

    @Test("a day's sleep after a night shift ends at the first walk after six hours of it: the still afternoon after is up")
    func upAfterADaysSleep() throws {
        // Home at 07:28, breakfast, asleep 07:55 to 14:25, then still on the sofa until 18:00.
        let pieces = nightShiftUntilHome() + [
            (.stationary, home, 25), (.walking, home, 2), (.stationary, home, 390),
            (.walking, home, 2), (.stationary, home, 213), (.walking, home, 2), (.stationary, home, 300), (.walking, home, 2), (.stationary, home, 600),
        ]
        let days = try OfflineTimeline.days(device(pieces), timeZone: zone)
        #expect(try slot(at: "2026-11-19 12:00:00", in: days).category == .sleep)
        #expect(try slot(at: "2026-11-19 16:00:00", in: days).category != .sleep)
    }
}
