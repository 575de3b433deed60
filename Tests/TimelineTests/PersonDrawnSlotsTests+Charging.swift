import Foundation
@testable import GuardianTimeline
import Testing

/// A phone charged overnight shows when the night began and ended, though it lies still on a table.
extension PersonDrawnSlotsTests {
    /// A first day: home at 16:00, the phone on a table until 07:30 the next morning.
    func stillEvening() -> OfflineTimeline.DeviceEvents {
        device([
            (.stationary, home, 420), (.walking, home, 2), (.automotive, home, 25), (.walking, office, 3), (.stationary, office, 480),
            (.walking, office, 3), (.automotive, office, 25), (.walking, home, 2), (.stationary, home, 930), (.walking, home, 2), (.stationary, home, 60),
        ])
    }

    @Test("an evening at home followed by charging at 23:00 is free time, then sleep until the phone comes off the charger at 07:00")
    func overnightCharge() throws {
        var events = stillEvening()
        events.charges = [
            ChargeEvent(timestamp: utc("2026-11-18 12:00:00"), charging: false), ChargeEvent(timestamp: utc("2026-11-18 23:00:00"), charging: true),
            ChargeEvent(timestamp: utc("2026-11-19 02:00:00"), charging: true), ChargeEvent(timestamp: utc("2026-11-19 07:00:00"), charging: false),
        ]
        let days = try OfflineTimeline.days(events, timeZone: zone)
        let evening = try slot(at: "2026-11-18 21:00:00", in: days)
        #expect(evening.category == .leisure && evening.end == utc("2026-11-18 23:00:00"))
        let night = try slot(at: "2026-11-19 03:00:00", in: days)
        #expect(night.category == .sleep && night.end == utc("2026-11-19 07:00:00"))
        #expect(try slot(at: "2026-11-19 07:10:00", in: days).category != .sleep)

        // Without the charger the night begins at 22:30 and lasts until the walk at 07:30.
        let uncharged = try OfflineTimeline.days(stillEvening(), timeZone: zone)
        #expect(try slot(at: "2026-11-18 21:00:00", in: uncharged).end == utc("2026-11-18 22:30:00"))
        #expect(try slot(at: "2026-11-19 07:10:00", in: uncharged).category == .sleep)
    }

    /// A first day: home at 16:00, a walk at `walk` (minutes after 16:00), then the phone on a
    /// table until 07:30 the next morning, but for a walk to the bathroom at 05:30; on the charger
    /// from 23:00 to 07:00.
    func chargedNight(walk: Double) -> OfflineTimeline.DeviceEvents {
        var events = device([
            (.stationary, home, 420), (.walking, home, 2), (.automotive, home, 25), (.walking, office, 3), (.stationary, office, 480),
            (.walking, office, 3), (.automotive, office, 25), (.walking, home, 2), (.stationary, home, walk), (.walking, home, 2),
            (.stationary, home, 808 - walk), (.walking, home, 2), (.stationary, home, 118), (.walking, home, 2), (.stationary, home, 60),
        ])
        events.charges = [
            ChargeEvent(timestamp: utc("2026-11-18 12:00:00"), charging: false), ChargeEvent(timestamp: utc("2026-11-18 23:00:00"), charging: true),
            ChargeEvent(timestamp: utc("2026-11-19 07:00:00"), charging: false),
        ]
        return events
    }

    @Test("the charger begins and ends the night however little stillness lies beside it: a walk just before, a walk to the bathroom")
    func chargerBesideAWalk() throws {
        // A walk 25 minutes before the charger goes on, and the bathroom at 05:30: the night is 23:00 to 07:00.
        let days = try OfflineTimeline.days(chargedNight(walk: 395), timeZone: zone)
        let bedtime = try slot(at: "2026-11-18 23:30:00", in: days)
        #expect(bedtime.category == .sleep && bedtime.start == utc("2026-11-18 23:00:00"), "\(bedtime)")
        #expect(try slot(at: "2026-11-19 03:00:00", in: days).category == .sleep)
        #expect(try slot(at: "2026-11-18 22:50:00", in: days).category != .sleep)
        #expect(try slot(at: "2026-11-19 06:00:00", in: days).category == .sleep)
        let morning = try slot(at: "2026-11-19 07:15:00", in: days)
        #expect(morning.category != .sleep && morning.start == utc("2026-11-19 07:00:00"), "\(morning)")
    }

    /// Six days up at 07:00 and in bed at 23:30, the walks seen; then to bed at 23:30 with the
    /// phone on the charger, and a morning the charger ends at `unplugged` (minutes after
    /// midnight) with the phone still on the table until `walk`.
    func chargedAfterRegularNights(unplugged: Double, walk: Double) -> OfflineTimeline.DeviceEvents {
        var pieces: [(MotionActivity, GeoPoint, Double)] = [(.stationary, home, 420)]
        for _ in 0..<6 {
            pieces += [(.walking, home, 2), (.stationary, home, 718), (.walking, home, 2), (.stationary, home, 268), (.walking, home, 2), (.stationary, home, 448)]
        }
        pieces += [(.walking, home, 2), (.stationary, home, 718), (.walking, home, 2), (.stationary, home, 268), (.walking, home, 2)]
        pieces += [(.stationary, home, walk + 1440 - 1412), (.walking, home, 2), (.stationary, home, 60)]
        var events = device(pieces)
        events.charges = [
            ChargeEvent(timestamp: utc("2026-11-24 23:32:00"), charging: true),
            ChargeEvent(timestamp: utc("2026-11-25 00:00:00") + Int64(unplugged * 60_000), charging: false),
        ]
        return events
    }

    @Test("the charger's end of a night wins over the usual time of getting up, and a still morning after it is no sleep")
    func chargerOverHabit() throws {
        // Up late at 08:30, the phone off the charger and carried: the night ends with that walk, not at the usual 07:00.
        let late = try OfflineTimeline.days(chargedAfterRegularNights(unplugged: 510, walk: 510), timeZone: zone)
        let night = try slot(at: "2026-11-25 03:00:00", in: late)
        #expect(night.category == .sleep && night.end == utc("2026-11-25 08:32:00"))
        // Off the charger at 06:00, the phone left on the table until 08:00: up from 06:00.
        let early = try OfflineTimeline.days(chargedAfterRegularNights(unplugged: 360, walk: 480), timeZone: zone)
        #expect(try slot(at: "2026-11-25 03:00:00", in: early).end == utc("2026-11-25 06:00:00"))
        #expect(try slot(at: "2026-11-25 07:00:00", in: early).category != .sleep)
    }

    @Test("generating step by step with charge events equals a full rebuild")
    func incrementalWithCharges() throws {
        let events = stillEvening()
        let charges = [ChargeEvent(timestamp: utc("2026-11-18 23:00:00"), charging: true), ChargeEvent(timestamp: utc("2026-11-19 07:00:00"), charging: false)]
        let generator = TimelineGenerator(timeZone: zone)
        var state = TimelineState()
        var instant = utc("2026-11-18 00:00:00")
        let end = events.motion.last!.timestamp
        while instant < end {
            instant = min(instant + 97 * minute, end)
            let known = charges.filter { $0.timestamp <= instant }
            let motion = events.motion.filter { $0.timestamp <= instant && $0.timestamp >= (state.resumeFrom ?? .min) }
            let fixes = events.locations.filter { $0.timestamp <= instant }
            let full = generator.rebuild(motion: events.motion.filter { $0.timestamp <= instant }, locations: fixes, charges: known, until: instant).state
            state = generator.update(state, motion: motion, locations: fixes, charges: known, until: instant)?.state ?? full
            #expect(state.slots == full.slots)
        }
        #expect(state.slots.contains { $0.start == utc("2026-11-18 23:00:00") })
    }
}

extension PersonDrawnSlotsTests {
    @Test("a still hour after midnight ended by plugging in the charger at 01:18 is the evening's end, not the night: the night begins with the walk to bed")
    func upUntilTheCharger() throws {
        // A first day: home at 16:00, walks at 22:05 and 00:07, the charger on at 01:18 with a walk to bed, up at 08:30.
        var events = device([
            (.stationary, home, 420), (.walking, home, 2), (.automotive, home, 25), (.walking, office, 3), (.stationary, office, 480),
            (.walking, office, 3), (.automotive, office, 25), (.walking, home, 2), (.stationary, home, 363), (.walking, home, 2),
            (.stationary, home, 120), (.walking, home, 2), (.stationary, home, 71), (.walking, home, 2), (.stationary, home, 430),
            (.walking, home, 2), (.stationary, home, 60),
        ])
        events.charges = [
            ChargeEvent(timestamp: utc("2026-11-18 12:00:00"), charging: false), ChargeEvent(timestamp: utc("2026-11-19 01:18:00"), charging: true),
            ChargeEvent(timestamp: utc("2026-11-19 08:30:00"), charging: false),
        ]
        let days = try OfflineTimeline.days(events, timeZone: zone)
        #expect(try slot(at: "2026-11-19 00:40:00", in: days).category != .sleep)
        let night = try slot(at: "2026-11-19 03:00:00", in: days)
        #expect(night.category == .sleep && night.start == utc("2026-11-19 01:20:00"), "\(night)")
    }
}

/// A day's sleep the charger bounds.
extension PersonDrawnSlotsTests {
    /// Home from a night shift at 07:28, the phone on the charger at 07:50, a walk at 13:45, still
    /// until 15:17 and unplugged then; `after` from 15:17.
    func dayAfterANightShiftOnTheCharger(then after: [(MotionActivity, GeoPoint, Double)]) throws -> [DayTimeline] {
        var events = device(nightShiftUntilHome() + [
            (.stationary, home, 25), (.walking, home, 2), (.stationary, home, 350), (.walking, home, 2), (.stationary, home, 90),
        ] + after)
        events.charges = [
            ChargeEvent(timestamp: utc("2026-11-18 12:00:00"), charging: false), ChargeEvent(timestamp: utc("2026-11-19 07:50:00"), charging: true),
            ChargeEvent(timestamp: utc("2026-11-19 15:17:00"), charging: false),
        ]
        return try OfflineTimeline.days(events, timeZone: zone)
    }

    @Test("home from a night shift, the phone on the charger at 07:50 and unplugged at 15:17: a walk at 13:45 is the bathroom, the day's sleep goes on until the charger")
    func daysSleepOnTheCharger() throws {
        let days = try dayAfterANightShiftOnTheCharger(then: [
            (.walking, home, 2), (.stationary, home, 300), (.walking, home, 2), (.stationary, home, 600),
        ])
        #expect(try slot(at: "2026-11-19 11:00:00", in: days).category == .sleep)
        #expect(try slot(at: "2026-11-19 14:30:00", in: days).category == .sleep)
        #expect(try slot(at: "2026-11-19 15:15:00", in: days).category == .sleep)
        #expect(try slot(at: "2026-11-19 15:30:00", in: days).category != .sleep)
    }

    @Test("the same, but the charger unplugged at 15:17 as a walk out begins: the day's sleep still goes on until it")
    func daysSleepUntilUnpluggedToGoOut() throws {
        let days = try dayAfterANightShiftOnTheCharger(then: [(.walking, home, 10), (.stationary, shop, 30), (.walking, shop, 10), (.stationary, home, 600)])
        #expect(try slot(at: "2026-11-19 11:00:00", in: days).category == .sleep)
        let sleep = try slot(at: "2026-11-19 14:30:00", in: days)
        #expect(sleep.category == .sleep)
        #expect(sleep.end == utc("2026-11-19 15:17:00"), "\(sleep)")
    }
}

/// The first state a phone reports.
extension PersonDrawnSlotsTests {
    @Test("a child's first day, the phone down from 16:40 and its first state report the charger plugged in at 21:10: the night begins at 21:10, not at the usual 22:30")
    func firstReportIsTheCharger() throws {
        var events = schoolDay(phoneDownAllEvening: true)
        events.charges = [ChargeEvent(timestamp: utc("2026-11-18 21:10:00"), charging: true), ChargeEvent(timestamp: utc("2026-11-19 06:45:00"), charging: false)]
        let days = try OfflineTimeline.days(events, timeZone: zone)
        let night = try slot(at: "2026-11-18 21:30:00", in: days)
        #expect(night.category == .sleep && night.start == utc("2026-11-18 21:10:00"), "\(night)")
        #expect(try slot(at: "2026-11-18 21:00:00", in: days).category == .leisure)
    }

    @Test("a first file from Tuesday 18:00: the phone put on the charger going to bed at 21:02 shows the person's bedtime; Wednesday's evening, no charger, the phone carried until 19:15, is up until 21:00, not 22:30")
    func chargerShowsAFirstBedtime() throws {
        // Tuesday from 18:00: walks about the flat every 30 minutes, to bed at 21:02, up at 07:00; Wednesday
        // the same from 07:00 until a last walk at 19:15, then still until 07:00.
        let evening = Array(repeating: [(MotionActivity.walking, home, 2.0), (.stationary, home, 28)], count: 6).flatMap { $0 }
        var pieces: [(MotionActivity, GeoPoint, Double)] = evening + [(.walking, home, 2), (.stationary, home, 598)]
        pieces += Array(repeating: [(MotionActivity.walking, home, 2.0), (.stationary, home, 28)], count: 24).flatMap { $0 }
        pieces += [(.walking, home, 2), (.stationary, home, 13), (.walking, home, 2), (.stationary, home, 703), (.walking, home, 2), (.stationary, home, 60)]
        var events = device(pieces, from: "2026-11-17 18:00:00")
        events.charges = [ChargeEvent(timestamp: utc("2026-11-17 21:01:00"), charging: true), ChargeEvent(timestamp: utc("2026-11-18 07:05:00"), charging: false)]
        let days = try OfflineTimeline.days(events, timeZone: zone)
        #expect(try slot(at: "2026-11-17 23:00:00", in: days).category == .sleep)
        #expect(try slot(at: "2026-11-18 20:30:00", in: days).category != .sleep)
        let night = try slot(at: "2026-11-18 21:30:00", in: days)
        #expect(night.category == .sleep && night.start == utc("2026-11-18 21:00:00"))
    }

    @Test("a charger plugged in on the way to bed shows the bedtime, and a still evening an hour past it is the night under way")
    func chargerOnTheWayToBed() throws {
        // Friday from 18:00: walks about the flat every 30 minutes, to bed from 20:58 to 21:06 with
        // the phone plugged in on the way at 21:02, up at 08:30; Saturday the same until a last walk
        // at 17:30, then still until the data ends at 23:59.
        var pieces: [(MotionActivity, GeoPoint, Double)] = Array(repeating: [(MotionActivity.walking, home, 2.0), (.stationary, home, 28)], count: 5).flatMap { $0 }
        pieces += [(.walking, home, 2), (.stationary, home, 26), (.walking, home, 8), (.stationary, home, 684)]
        pieces += Array(repeating: [(MotionActivity.walking, home, 2.0), (.stationary, home, 28)], count: 18).flatMap { $0 }
        pieces += [(.walking, home, 2), (.stationary, home, 387)]
        var events = device(pieces, from: "2026-11-20 18:00:00")
        events.charges = [ChargeEvent(timestamp: utc("2026-11-20 21:02:00"), charging: true), ChargeEvent(timestamp: utc("2026-11-21 08:35:00"), charging: false)]
        let days = try OfflineTimeline.days(events, timeZone: zone)
        #expect(try slot(at: "2026-11-20 23:00:00", in: days).category == .sleep)
        #expect(try slot(at: "2026-11-21 20:30:00", in: days).category != .sleep)
        let night = try slot(at: "2026-11-21 22:30:00", in: days)
        #expect(night.category == .sleep && night.start == utc("2026-11-21 21:00:00"))
    }
}
