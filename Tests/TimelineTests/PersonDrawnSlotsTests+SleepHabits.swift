import Foundation
@testable import GuardianTimeline
import Testing

/// A person's own bedtime and time of getting up, learned from the nights their phone shows.
extension PersonDrawnSlotsTests {
    /// Six days seen: up at 07:00, a walk at 19:00, to bed at 23:30. Then an evening with the
    /// phone on a table from 19:02 until 11:00 the next morning.
    func regularNights() -> OfflineTimeline.DeviceEvents {
        var pieces: [(MotionActivity, GeoPoint, Double)] = [(.stationary, home, 420)]
        for _ in 0..<6 {
            pieces += [(.walking, home, 2), (.stationary, home, 718), (.walking, home, 2), (.stationary, home, 268), (.walking, home, 2), (.stationary, home, 448)]
        }
        pieces += [(.walking, home, 2), (.stationary, home, 718), (.walking, home, 2), (.stationary, home, 958), (.walking, home, 2), (.stationary, home, 120)]
        return device(pieces)
    }

    @Test("a still evening and morning at home end at the person's usual bedtime (23:30) and time of getting up (07:00), learned from earlier nights")
    func learnedBedtime() throws {
        let days = try OfflineTimeline.days(regularNights(), timeZone: zone)
        let evening = try slot(at: "2026-11-24 22:30:00", in: days)
        #expect(evening.category != .sleep)
        #expect(evening.end == utc("2026-11-24 23:30:00"))
        #expect(try slot(at: "2026-11-24 23:45:00", in: days).category == .sleep)
        let night = try slot(at: "2026-11-25 03:00:00", in: days)
        #expect(night.category == .sleep && night.end == utc("2026-11-25 07:00:00"))
        #expect(try slot(at: "2026-11-25 08:00:00", in: days).category != .sleep)
        // The nights the phone showed stay as they were: to bed at 23:32.
        #expect(try slot(at: "2026-11-20 23:31:00", in: days).category != .sleep)
        #expect(try slot(at: "2026-11-20 23:40:00", in: days).category == .sleep)
    }

    @Test("the night the data begins in is sleep from its start, though the person's usual bedtime (00:45) comes after it: no evening was seen")
    func dataBeginsAsleep() throws {
        // Asleep when the data begins at midnight, up at 08:00; then three days to bed at 00:45, the walks seen.
        var pieces: [(MotionActivity, GeoPoint, Double)] = [(.stationary, home, 480)]
        for _ in 0..<3 {
            pieces += [(.walking, home, 2), (.stationary, home, 718), (.walking, home, 2), (.stationary, home, 283), (.walking, home, 2), (.stationary, home, 433)]
        }
        pieces += [(.walking, home, 2), (.stationary, home, 60)]
        let days = try OfflineTimeline.days(device(pieces), timeZone: zone)
        #expect(try slot(at: "2026-11-18 00:20:00", in: days).category == .sleep)
        // The nights seen stay as they were: up until 00:45.
        #expect(try slot(at: "2026-11-19 00:20:00", in: days).category != .sleep)
        #expect(try slot(at: "2026-11-19 02:00:00", in: days).category == .sleep)
    }

    @Test("an evening still from the afternoon or early evening shows no bedtime: a phone on a table all evening does not make a late sleeper's bedtime early")
    func stillEveningsShowNoBedtime() throws {
        // Eleven days up at 08:00. Before the working days the last walk ahead of the night is
        // at 15:00 twice and 19:00 once (the phone on a table all evening), at 20:30, 21:00 and
        // 21:30, and at 00:30 once; before days off at 23:00. Then a Sunday evening still from 19:00.
        var pieces: [(MotionActivity, GeoPoint, Double)] = [(.stationary, home, 480)]
        for lastWalk in [900.0, 1140, 1380, 1380, 900, 1230, 1260, 1290, 1470, 1380, 1380] {
            pieces += [(.walking, home, 2), (.stationary, home, lastWalk - 482), (.walking, home, 2), (.stationary, home, 1918 - lastWalk)]
        }
        pieces += [(.walking, home, 2), (.stationary, home, 658), (.walking, home, 2), (.stationary, home, 778), (.walking, home, 2), (.stationary, home, 120)]
        let days = try OfflineTimeline.days(device(pieces), timeZone: zone)
        // The working days' bedtimes seen are 20:30, 21:00, 21:30 and 00:30: a late one is 00:30.
        #expect(try slot(at: "2026-11-29 23:30:00", in: days).category != .sleep)
        #expect(try slot(at: "2026-11-30 03:00:00", in: days).category == .sleep)
    }

    @Test("a night the phone shows no end of but leaving home at 07:39 ends by 06:54: the person got ready first")
    func upBeforeLeaving() throws {
        let days = try OfflineTimeline.days(device([
            (.stationary, home, 459), (.walking, home, 3), (.automotive, home, 25), (.walking, office, 3), (.stationary, office, 540),
            (.walking, office, 3), (.automotive, office, 25), (.walking, home, 3), (.stationary, home, 382),
        ]), timeZone: zone)
        let night = try slot(at: "2026-11-18 06:30:00", in: days)
        #expect(night.category == .sleep)
        #expect(night.end == utc("2026-11-18 07:00:00"))
        #expect(try slot(at: "2026-11-18 07:20:00", in: days).category != .sleep)
    }

    @Test("a walk at 08:46 ends the night: the still 70 minutes after it until going out are the morning, not more of the night")
    func stillHourAfterGettingUp() throws {
        let days = try OfflineTimeline.days(device([
            (.stationary, home, 526), (.walking, home, 2), (.stationary, home, 70), (.walking, home, 150), (.stationary, home, 40),
            (.walking, home, 2), (.stationary, home, 650),
        ]), timeZone: zone)
        #expect(try slot(at: "2026-11-18 06:00:00", in: days).category == .sleep)
        #expect(try slot(at: "2026-11-18 09:15:00", in: days).category != .sleep)
    }

    @Test("on a working morning a walk after a whole night's rest is getting up, though the phone then lies still for hours; a walk after half a night is not")
    func upAfterAWholeNight() throws {
        // Wednesday: asleep from midnight, a walk at 07:15, the phone on a table until 10:49.
        let up = try OfflineTimeline.days(device([
            (.stationary, home, 435), (.walking, home, 2), (.stationary, home, 212), (.walking, home, 2), (.stationary, home, 789),
        ]), timeZone: zone)
        #expect(try slot(at: "2026-11-18 05:00:00", in: up).category == .sleep)
        let morning = try slot(at: "2026-11-18 07:20:00", in: up)
        #expect(morning.category != .sleep)
        #expect(morning.start <= utc("2026-11-18 07:17:00"))
        #expect(try slot(at: "2026-11-18 09:00:00", in: up).category != .sleep)

        // The same walk at 03:30 (the bathroom), still until 06:15: the night goes on after it.
        let bathroom = try OfflineTimeline.days(device([
            (.stationary, home, 210), (.walking, home, 2), (.stationary, home, 163), (.walking, home, 2), (.stationary, home, 1063),
        ]), timeZone: zone)
        #expect(try slot(at: "2026-11-18 05:00:00", in: bathroom).category == .sleep)
    }

    @Test("a still morning ended by going out at 11:35 was slept until two hours before; a walk at 23:10 with the data ending still is the night begun")
    func firstDayEnds() throws {
        // Wednesday: the phone on a table from midnight, out by bike at 11:35 for three hours, home
        // at 15:01 and still but for a walk at 23:10 until the data ends at 23:50.
        let days = try OfflineTimeline.days(device([
            (.stationary, home, 695), (.walking, home, 2), (.cycling, home, 20), (.walking, school, 2), (.stationary, school, 160),
            (.walking, school, 2), (.cycling, school, 20), (.walking, home, 2), (.stationary, home, 487), (.walking, home, 2),
            (.stationary, home, 38),
        ]), timeZone: zone)
        // Asleep until the quarter hour from two hours before going out, not the usual 08:00.
        let night = try slot(at: "2026-11-18 05:00:00", in: days)
        #expect(night.category == .sleep && night.end == utc("2026-11-18 09:45:00"))
        #expect(try slot(at: "2026-11-18 10:00:00", in: days).category != .sleep)
        #expect(try slot(at: "2026-11-18 22:00:00", in: days).category == .leisure)
        let bedtime = try slot(at: "2026-11-18 23:30:00", in: days)
        #expect(bedtime.category == .sleep && bedtime.start == utc("2026-11-18 23:12:00"))
    }

    @Test("on a day off, a walk at 08:06 a little before the two hours before going out at 10:28 is getting up, not more of the night")
    func walkBeforeGoingOut() throws {
        // Saturday: the phone still from midnight, a walk at 08:06, still until going out by bike at 10:28.
        let days = try OfflineTimeline.days(device([
            (.stationary, home, 486), (.walking, home, 2), (.stationary, home, 140), (.walking, home, 2), (.cycling, home, 20),
            (.walking, school, 2), (.stationary, school, 160), (.walking, school, 2), (.cycling, school, 20), (.walking, home, 2),
            (.stationary, home, 600),
        ], from: "2026-11-21 00:00:00"), timeZone: zone)
        #expect(try slot(at: "2026-11-21 07:00:00", in: days).category == .sleep)
        let morning = try slot(at: "2026-11-21 08:15:00", in: days)
        #expect(morning.category == .food && morning.start == utc("2026-11-21 08:08:00"))
        #expect(try slot(at: "2026-11-21 09:30:00", in: days).category == .leisure)
    }

    @Test("a still night ended by going out for a walk at 09:47 ends at the usual 08:00: going out is no getting up")
    func goingOutIsNoGettingUp() throws {
        let days = try OfflineTimeline.days(device([
            (.stationary, home, 587), (.walking, home, 100), (.stationary, home, 60), (.walking, home, 2), (.stationary, home, 600),
        ]), timeZone: zone)
        let night = try slot(at: "2026-11-18 05:00:00", in: days)
        #expect(night.category == .sleep && night.end == utc("2026-11-18 08:00:00"))
        #expect(try slot(at: "2026-11-18 08:30:00", in: days).category != .sleep)
    }

    @Test("a phone that shows little at home: a walk at 21:15 is no bedtime, the night begins at 22:30; a carried phone's walk at 21:15 is")
    func quietPhoneBedtime() throws {
        /// Wednesday at home: up at 07:30, walks about the flat every 45 minutes (carried) or at
        /// 12:00 and 18:00 only (on a table), a last walk at 21:15, still until 07:00.
        func day(carried: Bool) -> OfflineTimeline.DeviceEvents {
            var pieces: [(MotionActivity, GeoPoint, Double)] = [(.stationary, home, 450)]
            var now = 450.0
            for walk in (carried ? Array(stride(from: 495.0, to: 1275, by: 45)) : [720, 1080]) + [1275] {
                pieces += [(.walking, home, 2), (.stationary, home, walk - now - 2)]
                now = walk
            }
            return device(pieces + [(.walking, home, 2), (.stationary, home, 1440 + 420 - now - 2), (.walking, home, 2), (.stationary, home, 60)])
        }
        let table = try OfflineTimeline.days(day(carried: false), timeZone: zone)
        #expect(try slot(at: "2026-11-18 22:00:00", in: table).category != .sleep)
        let night = try slot(at: "2026-11-18 23:00:00", in: table)
        #expect(night.category == .sleep && night.start == utc("2026-11-18 22:30:00"))

        let pocket = try OfflineTimeline.days(day(carried: true), timeZone: zone)
        let early = try slot(at: "2026-11-18 22:00:00", in: pocket)
        #expect(early.category == .sleep && early.start <= utc("2026-11-18 21:17:00"))

        // The data ending at 23:50, still since 21:17: the night begun is put at 22:30 all the same.
        var untilNow = day(carried: false)
        untilNow.motion.removeAll { $0.timestamp >= utc("2026-11-18 23:50:00") }
        let begun = try OfflineTimeline.days(untilNow, timeZone: zone)
        #expect(try slot(at: "2026-11-18 22:00:00", in: begun).category != .sleep)
        let tonight = try slot(at: "2026-11-18 23:00:00", in: begun)
        #expect(tonight.category == .sleep && tonight.start == utc("2026-11-18 22:30:00"))
    }

    /// From Wednesday, a night for each of `bedtimes` (local minutes after that day's midnight):
    /// up at 07:00, walks about the flat every 45 minutes (`carried`) or at 12:00 and 18:00 only (on
    /// a table), to bed with a walk at the bedtime, still until 07:00; a last hour up.
    func nights(bedtimes: [Double], carried: Bool) -> OfflineTimeline.DeviceEvents {
        var pieces: [(MotionActivity, GeoPoint, Double)] = [(.stationary, home, 420)]
        var now = 420.0
        for (day, bedtime) in bedtimes.enumerated() {
            let midnight = Double(day) * 1440, bed = midnight + bedtime
            let walks = (carried ? Array(stride(from: midnight + 465, to: bed, by: 45)) : [midnight + 720, midnight + 1080]) + [bed]
            for walk in walks {
                pieces += [(.walking, home, 2), (.stationary, home, walk - now - 2)]
                now = walk
            }
            pieces += [(.walking, home, 2), (.stationary, home, midnight + 1440 + 420 - now - 2)]
            now = midnight + 1440 + 420
        }
        return device(pieces + [(.walking, home, 2), (.stationary, home, 60)])
    }

    @Test("to bed at 23:30 for six nights, then a last walk at 22:20: a carried phone's is going to bed, a phone on a table's is not")
    func carriedPhoneEarlyNight() throws {
        let bedtimes = Array(repeating: 1410.0, count: 6) + [1340]
        let pocket = try OfflineTimeline.days(nights(bedtimes: bedtimes, carried: true), timeZone: zone)
        #expect(try slot(at: "2026-11-20 23:20:00", in: pocket).category != .sleep)
        let early = try slot(at: "2026-11-24 22:40:00", in: pocket)
        #expect(early.category == .sleep && early.start <= utc("2026-11-24 22:22:00"))

        let table = try OfflineTimeline.days(nights(bedtimes: bedtimes, carried: false), timeZone: zone)
        #expect(try slot(at: "2026-11-24 22:40:00", in: table).category != .sleep)
        #expect(try slot(at: "2026-11-24 23:40:00", in: table).category == .sleep)
    }

    @Test("to bed at 23:30 for six nights, then a carried phone put down at 21:50, an hour and a half before; or at 21:00 every night (a child, keeping to it), then put down at 19:40, 80 minutes before: the evening goes on until the bedtime", arguments: [(1410.0, 1310.0), (1260, 1180)])
    func carriedPhonePutDown(bedtime: Double, putDown: Double) throws {
        let days = try OfflineTimeline.days(nights(bedtimes: Array(repeating: bedtime, count: 6) + [putDown], carried: true), timeZone: zone)
        let midnight = utc("2026-11-24 00:00:00")
        func minute(_ minutes: Double) -> Int64 { midnight + Int64(minutes * 60_000) }
        #expect(try slot(at: minute((putDown + bedtime) / 2), in: days).category != .sleep)
        let night = try slot(at: minute(bedtime + 10), in: days)
        #expect(night.category == .sleep && night.start == minute(bedtime))
    }

    @Test("a carried phone's usual bedtime is the middle of those it showed, not a late one: put down at 20:30, it is in bed at 23:00, not 00:30")
    func carriedPhoneUsualBedtime() throws {
        // To bed at 22:30, 23:00, 00:00, 00:00, 23:30 and 00:30; the seventh evening (Tuesday) the
        // phone is put down at 20:30. The nights before working days began at 22:30, 23:00, 23:30,
        // 00:30 and (seen so) 20:30: the middle one is 23:00.
        let days = try OfflineTimeline.days(nights(bedtimes: [1350, 1380, 1440, 1440, 1410, 1470, 1230], carried: true), timeZone: zone)
        #expect(try slot(at: "2026-11-24 22:40:00", in: days).category != .sleep)
        let night = try slot(at: "2026-11-24 23:10:00", in: days)
        #expect(night.category == .sleep && night.start == utc("2026-11-24 23:00:00"))
    }

    @Test("a first day out until 15:36 and home with the phone on a table after it: a walk at 21:18 is no bedtime, the night begins at 22:30")
    func quietFirstAfternoon() throws {
        // Wednesday: the data begins in the night; up with a walk at 09:45, out by bike at 11:38 for
        // three and a half hours, home at 15:36 with the phone still but for a walk at 21:18.
        let days = try OfflineTimeline.days(device([
            (.stationary, home, 585), (.walking, home, 2), (.stationary, home, 111), (.walking, home, 2), (.cycling, home, 20),
            (.walking, school, 2), (.stationary, school, 190), (.walking, school, 2), (.cycling, school, 20), (.walking, home, 2),
            (.stationary, home, 342), (.walking, home, 2), (.stationary, home, 160),
        ]), timeZone: zone)
        #expect(try slot(at: "2026-11-18 22:00:00", in: days).category == .leisure)
        let night = try slot(at: "2026-11-18 23:00:00", in: days)
        #expect(night.category == .sleep && night.start == utc("2026-11-18 22:30:00"))
    }

    @Test("a phone on a table, up at 09:45 the next morning: the night began at 23:45 (ten hours before), not at the usual 22:30; up at 07:30 it did")
    func lateMorningLateNight() throws {
        /// Wednesday, the phone on a table at home: up at 10:28, out by bike 11:37 to 15:35, walks at
        /// 19:04 and 19:42, then still until getting up at `up` (local minutes) on Thursday.
        func day(up: Double) -> OfflineTimeline.DeviceEvents {
            device([
                (.stationary, home, 628), (.walking, home, 2), (.stationary, home, 67), (.walking, home, 2), (.cycling, home, 20),
                (.walking, school, 2), (.stationary, school, 200), (.walking, school, 2), (.cycling, school, 20), (.walking, home, 2),
                (.stationary, home, 209), (.walking, home, 2), (.stationary, home, 36), (.walking, home, 2),
                (.stationary, home, 1440 + up - 1184), (.walking, home, 2), (.stationary, home, 60),
            ])
        }
        let late = try OfflineTimeline.days(day(up: 9 * 60 + 45), timeZone: zone)
        #expect(try slot(at: "2026-11-18 23:40:00", in: late).category != .sleep)
        let night = try slot(at: "2026-11-18 23:50:00", in: late)
        #expect(night.category == .sleep && night.start == utc("2026-11-18 23:45:00"))

        let early = try OfflineTimeline.days(day(up: 7 * 60 + 30), timeZone: zone)
        let usual = try slot(at: "2026-11-18 23:40:00", in: early)
        #expect(usual.category == .sleep && usual.start == utc("2026-11-18 22:30:00"))
    }

    @Test("a whole day the phone lies still between two nights is a day up, not one night of thirty hours")
    func stillDayBetweenNights() throws {
        // Home by bike at 02:10 on Wednesday, the phone on a table until a walk at 00:20 on Thursday,
        // then still until 08:32.
        let days = try OfflineTimeline.days(device([
            (.stationary, school, 110), (.cycling, school, 20), (.walking, home, 2), (.stationary, home, 1328), (.walking, home, 2),
            (.stationary, home, 490), (.walking, home, 2), (.stationary, home, 30),
        ]), timeZone: zone)
        #expect(try slot(at: "2026-11-18 05:00:00", in: days).category == .sleep)
        for hour in ["10", "14", "19", "22"] {
            #expect(try slot(at: "2026-11-18 \(hour):00:00", in: days).category != .sleep)
        }
        #expect(try slot(at: "2026-11-19 03:00:00", in: days).category == .sleep)
    }

    @Test("nights ended by going out at 10:30 teach getting up 45 minutes before: a still morning ended at 10:30 by a walk ends at 09:45")
    func upBeforeGoingOut() throws {
        // Wednesday to Friday: the phone on a table from a walk at 22:50 until going out by bike
        // at 10:30, out until 16:16; Saturday: still from 22:50 until a walk about the flat at 10:30.
        var pieces: [(MotionActivity, GeoPoint, Double)] = [(.stationary, home, 630)]
        for _ in 0..<3 {
            pieces += [
                (.walking, home, 2), (.cycling, home, 20), (.walking, school, 2), (.stationary, school, 300), (.walking, school, 2),
                (.cycling, school, 20), (.walking, home, 2), (.stationary, home, 392), (.walking, home, 2), (.stationary, home, 698),
            ]
        }
        pieces += [(.walking, home, 2), (.stationary, home, 300), (.walking, home, 2), (.stationary, home, 60)]
        let days = try OfflineTimeline.days(device(pieces), timeZone: zone)
        let night = try slot(at: "2026-11-21 08:00:00", in: days)
        #expect(night.category == .sleep && night.end == utc("2026-11-21 09:45:00"))
        #expect(try slot(at: "2026-11-21 10:00:00", in: days).category != .sleep)
    }

    @Test("hours are learned per kind of day once three nights are seen, from all nights before (a day off's time of getting up no earlier than the usual one until its own are); irregular times of getting up are no habit, irregular bedtimes a late one, steady ones the middle one")
    func habits() {
        func night(_ start: Double?, _ end: Double?, dayOff: Bool = false) -> SleepHabits.Night { SleepHabits.Night(start: start, end: end, dayOff: dayOff) }
        // Two nights: the usual hours, but in bed by a quarter hour before the earlier of the two seen.
        let twoNights = SleepHabits([night(1410, 420), night(1400, 430)], dayOff: false)
        var usualButSeen = SleepHabits.usual
        usualButSeen.earliestBedtimeSeen = 1400
        #expect(twoNights == usualButSeen && twoNights.inBedBy == 1385)
        let seen = [night(1410, 420), night(1300, 500), night(1400, 430), night(1380, 600), night(1420, 410), night(1440, 540, dayOff: true)]
        let workdays = SleepHabits(seen, dayOff: false)
        // A late one of the bedtimes seen, an early one of the times of getting up.
        #expect(workdays.bedtime == 1420 && workdays.wakeUp == 410 && workdays.bedtimeMargin == SleepHabits.learnedMargin)
        // One night before a day off: that kind takes every night's bedtime, but not a working day's
        // early time of getting up (a lie-in is no waking late): the usual one, with its margin; a
        // later one than the usual stays (a late riser, `upBeforeGoingOut`).
        var lieIn = SleepHabits(bedtime: 1440, wakeUp: SleepHabits.usual.wakeUp, wakeUpMargin: SleepHabits.usual.wakeUpMargin)
        lieIn.earliestBedtimeSeen = 1300
        // In bed by an early one of the bedtimes (a quarter of them earlier).
        lieIn.earlyBedtime = 1380
        #expect(SleepHabits(seen, dayOff: true) == lieIn && lieIn.inBedBy == 1380)
        let weekends = seen + [night(1450, 560, dayOff: true), night(1460, 570, dayOff: true)]
        #expect(SleepHabits(weekends, dayOff: true).wakeUp == 540)
        // Rotating shifts: up at 05:00, 08:30 or 14:00 by the week.
        let rotating = [night(1290, 300), night(1280, 310), night(1410, 510), night(1400, 520), night(190, 840), night(200, 850)]
        #expect(SleepHabits(rotating, dayOff: false).wakeUp == SleepHabits.usual.wakeUp)
        // A student to bed anywhere from 21:00 to 02:00: not at the usual 22:30, but late.
        let student = [night(1260, 540), night(1500, 600), night(1320, 560), night(1560, 620), night(1440, 580), night(1380, 600)]
        let late = SleepHabits(student, dayOff: false)
        #expect(!SleepHabits.regular(student.compactMap(\.start)))
        #expect(late.bedtime == 1560 && late.bedtimeMargin == SleepHabits.learnedMargin)
        // A night the data stopped in (no end seen) says nothing of when it began.
        #expect(SleepHabits([night(1380, 420), night(1420, 430), night(1450, 410), night(1500, nil)], dayOff: false).bedtime == 1450)
        // Bedtimes kept to within 20 minutes are going to bed itself: the middle one.
        #expect(SleepHabits([night(1410, 420), night(1400, 430), night(1420, 410)], dayOff: false).bedtime == 1410)
    }

    @Test("home from a bar at 00:10 and to bed at 00:21: the eleven minutes up are the evening's end, the night begins at the walk to bed")
    func homeLateThenBed() throws {
        let bar = GeoPoint(lat: 52.5100, lon: 13.4050)
        let days = try OfflineTimeline.days(device([
            (.stationary, home, 420), (.walking, home, 2), (.stationary, home, 758), (.walking, home, 2), (.stationary, home, 78),
            (.walking, home, 2), (.cycling, home, 16), (.walking, bar, 2), (.stationary, bar, 150), (.walking, bar, 2), (.cycling, bar, 16),
            (.walking, home, 2), (.stationary, home, 11), (.walking, home, 2), (.stationary, home, 467), (.walking, home, 2),
        ]), timeZone: zone)
        let up = try slot(at: "2026-11-19 00:15:00", in: days)
        #expect(up.category == .leisure)
        let night = try slot(at: "2026-11-19 02:00:00", in: days)
        #expect(night.category == .sleep)
        #expect(abs(night.start - utc("2026-11-19 00:23:00")) <= 2 * 60_000)
    }

    @Test("with a carried phone, a walk at 01:02 after 45 minutes still is going to bed; on a table, the walk at 00:15 before them is")
    func carriedPhoneLateToBed() throws {
        /// Wednesday at home: up at 08:00, walks about the flat every 40 minutes (carried) or at
        /// 12:00 and 18:00 only (on a table), walks at 00:15 and 01:02, then still until 08:00.
        func night(carried: Bool) throws -> [DayTimeline] {
            var pieces: [(MotionActivity, GeoPoint, Double)] = [(.stationary, home, 480)]
            let awake = carried ? Array(repeating: 38.0, count: 24) + [13] : [238, 358, 373]
            for minutes in awake { pieces += [(.walking, home, 2), (.stationary, home, minutes)] }
            pieces += [(.walking, home, 2), (.stationary, home, 45), (.walking, home, 2), (.stationary, home, 416), (.walking, home, 2), (.stationary, home, 60)]
            return try OfflineTimeline.days(device(pieces), timeZone: zone)
        }
        let carried = try night(carried: true)
        #expect(try slot(at: "2026-11-19 00:40:00", in: carried).category != .sleep)
        let bedtime = try slot(at: "2026-11-19 03:00:00", in: carried)
        #expect(bedtime.category == .sleep && bedtime.start == utc("2026-11-19 01:04:00"), "\(bedtime)")
        #expect(try slot(at: "2026-11-19 00:40:00", in: night(carried: false)).category == .sleep)
    }

    @Test("a phone on a table whose last walks before the night keep to 22:15-22:30 shows going to bed: a walk at 22:20 begins the night, though two nights ended at 23:20")
    func steadyBedtimeOnATable() throws {
        // From Monday: up at 07:00 each day, the phone on a table but for walks at 07:00, 12:30 and the bedtime walk.
        let bedtimes: [Double] = [1335, 1340, 1400, 1345, 1340, 1350, 1345, 1405, 1340, 1340]
        var pieces: [(MotionActivity, GeoPoint, Double)] = [(.stationary, home, 420)]
        for bedtime in bedtimes {
            pieces += [(.walking, home, 2), (.stationary, home, 328), (.walking, home, 2), (.stationary, home, bedtime - 752), (.walking, home, 2), (.stationary, home, 1858 - bedtime)]
        }
        pieces += [(.walking, home, 2), (.stationary, home, 60)]
        let days = try OfflineTimeline.days(device(pieces, from: "2026-11-16 00:00:00"), timeZone: zone)
        // The last evening: to bed at 22:22 after the walk.
        let night = try slot(at: "2026-11-25 23:00:00", in: days)
        #expect(night.category == .sleep && night.start == utc("2026-11-25 22:22:00"), "\(night)")
        #expect(try slot(at: "2026-11-25 22:10:00", in: days).category != .sleep)
    }

    @Test("a person up at 09:30 every day sleeps on after a walk at 07:07 on a Saturday: two still hours then are more of the night")
    func lieInAfterAWalk() throws {
        // Wednesday to Friday: up at 09:30, walks every hour (a carried phone), to bed at 23:30. Saturday: a walk at 07:07, still until 09:07.
        var pieces: [(MotionActivity, GeoPoint, Double)] = [(.stationary, home, 570)]
        for day in 0..<3 {
            for _ in 0..<14 { pieces += [(.walking, home, 2), (.stationary, home, 58)] }
            pieces += [(.walking, home, 2), (.stationary, home, day < 2 ? 598 : 455)]
        }
        pieces += [(.walking, home, 2), (.stationary, home, 118)]
        for _ in 0..<4 { pieces += [(.walking, home, 2), (.stationary, home, 58)] }
        let days = try OfflineTimeline.days(device(pieces), timeZone: zone)
        #expect(try slot(at: "2026-11-21 08:30:00", in: days).category == .sleep)
        #expect(try slot(at: "2026-11-21 09:30:00", in: days).category != .sleep)
    }
}

/// Nights whose first stillness the phone shows begin later than they did: the charger plugged in
/// at bedtime, or a walk in the night after the person's usual bedtime, begins them instead.
extension PersonDrawnSlotsTests {
    /// Three days at home from Wednesday with the phone carried (a walk every hour from 07:00 to
    /// 20:00), to bed at 21:00; Saturday evening still from 20:02, then walks at 21:20 and 23:20,
    /// still between them and until 07:00.
    func walkInTheNight() -> OfflineTimeline.DeviceEvents {
        var pieces: [(MotionActivity, GeoPoint, Double)] = [(.stationary, home, 420)]
        for day in 0..<4 {
            for _ in 7..<20 { pieces += [(.walking, home, 2), (.stationary, home, 58)] }
            pieces += [(.walking, home, 2)]
            pieces += day < 3
                ? [(.stationary, home, 58), (.walking, home, 2), (.stationary, home, 598)]
                : [(.stationary, home, 78), (.walking, home, 2), (.stationary, home, 118), (.walking, home, 2), (.stationary, home, 458)]
        }
        return device(pieces + [(.walking, home, 2), (.stationary, home, 60)])
    }

    @Test("still from after the usual bedtime (21:00) until a walk at 23:20: in bed from 21:22, the walk got up in the night; still from 20:02 until 21:20 is the evening")
    func walkAfterBedtime() throws {
        let days = try OfflineTimeline.days(walkInTheNight(), timeZone: zone)
        #expect(try slot(at: "2026-11-22 02:00:00", in: days).category == .sleep)
        let night = try slot(at: "2026-11-21 22:30:00", in: days)
        #expect(night.category == .sleep)
        #expect(night.start <= utc("2026-11-21 21:22:00") && night.start >= utc("2026-11-21 21:20:00"), "\(night)")
        #expect(try slot(at: "2026-11-21 20:45:00", in: days).category != .sleep)
    }

    @Test("to bed at 20:45, 21:15 and 20:50 before working days (the usual bedtime a late one, 21:15): still from 20:52 until a walk at 22:26 is in bed from 20:52, an early one of their bedtimes")
    func walkAfterAnEarlyBedtime() throws {
        var pieces: [(MotionActivity, GeoPoint, Double)] = [(.stationary, home, 420)]
        // Wednesday to Sunday nights: minutes after 20:00 of the walk to bed.
        for bedtime in [45.0, 75, 90, 100, 50] {
            for _ in 7..<20 { pieces += [(.walking, home, 2), (.stationary, home, 58)] }
            pieces += [(.walking, home, 2), (.stationary, home, bedtime - 2), (.walking, home, 2), (.stationary, home, 658 - bedtime)]
        }
        for _ in 7..<20 { pieces += [(.walking, home, 2), (.stationary, home, 58)] }
        pieces += [(.walking, home, 2), (.stationary, home, 48), (.walking, home, 2), (.stationary, home, 94), (.walking, home, 2), (.stationary, home, 512)]
        let days = try OfflineTimeline.days(device(pieces + [(.walking, home, 2), (.stationary, home, 60)]), timeZone: zone)
        let night = try slot(at: "2026-11-23 21:30:00", in: days)
        #expect(night.category == .sleep)
        #expect(night.start >= utc("2026-11-23 20:50:00") && night.start <= utc("2026-11-23 20:52:00"), "\(night)")
        #expect(try slot(at: "2026-11-23 20:30:00", in: days).category != .sleep)
    }

    /// A first file from Friday 18:00, to bed at 20:50 that night and up at 07:50; on Saturday a walk
    /// every hour `hours` times, then still `minutes` until a walk into a stillness of 110 minutes, a
    /// walk in the night, and the rest of it.
    func saturdayAfterAFirstNight(hours: Int, then minutes: Double) throws -> [DayTimeline] {
        var pieces: [(MotionActivity, GeoPoint, Double)] = [(.stationary, home, 58), (.walking, home, 2), (.stationary, home, 58), (.walking, home, 2)]
        pieces += [(.stationary, home, 48), (.walking, home, 2), (.stationary, home, 660), (.walking, home, 2)]  // to bed at 20:50, up at 07:50
        for _ in 0..<hours { pieces += [(.stationary, home, 58), (.walking, home, 2)] }
        pieces += [(.stationary, home, minutes), (.walking, home, 2), (.stationary, home, 110), (.walking, home, 2), (.stationary, home, 500), (.walking, home, 2)]
        return try OfflineTimeline.days(device(pieces + [(.stationary, home, 30)], from: "2026-11-20 18:00:00"), timeZone: zone)
    }

    @Test("a first file from Friday 18:00, to bed at 20:50 that night: on Saturday still from 21:37 until a walk at 23:27 is in bed from 21:37, before any habit is learned")
    func walkAfterTheBedtimeSeenTheNightBefore() throws {
        let days = try saturdayAfterAFirstNight(hours: 13, then: 43)
        let night = try slot(at: "2026-11-21 22:30:00", in: days)
        #expect(night.category == .sleep)
        #expect(night.start >= utc("2026-11-21 21:35:00") && night.start <= utc("2026-11-21 21:37:00"), "\(night)")
        #expect(try slot(at: "2026-11-21 21:00:00", in: days).category != .sleep)
    }

    @Test("a first file from Friday 18:00, to bed at 20:50 that night: on Saturday still from 20:40, ten minutes earlier, until a walk at 22:30 is in bed from 20:40")
    func walkAfterABedtimeNearTheOneSeen() throws {
        let days = try saturdayAfterAFirstNight(hours: 12, then: 46)
        let night = try slot(at: "2026-11-21 21:30:00", in: days)
        #expect(night.category == .sleep)
        #expect(night.start >= utc("2026-11-21 20:38:00") && night.start <= utc("2026-11-21 20:40:00"), "\(night)")
        #expect(try slot(at: "2026-11-21 20:20:00", in: days).category != .sleep)
    }

    @Test("a first day with the phone on the charger at 22:30 and a walk at 00:20: the night begins at the charger, the walk got up in it")
    func chargedForBed() throws {
        var events = device([
            (.stationary, home, 420), (.walking, home, 2), (.automotive, home, 25), (.walking, office, 3), (.stationary, office, 480),
            (.walking, office, 3), (.automotive, office, 25), (.walking, home, 2), (.stationary, home, 500), (.walking, home, 2),
            (.stationary, home, 428), (.walking, home, 2), (.stationary, home, 60),
        ])
        events.charges = [
            ChargeEvent(timestamp: utc("2026-11-18 12:00:00"), charging: false), ChargeEvent(timestamp: utc("2026-11-18 22:30:00"), charging: true),
            ChargeEvent(timestamp: utc("2026-11-19 07:00:00"), charging: false),
        ]
        let days = try OfflineTimeline.days(events, timeZone: zone)
        let night = try slot(at: "2026-11-18 23:30:00", in: days)
        #expect(night.category == .sleep && night.start == utc("2026-11-18 22:30:00"), "\(night)")
        #expect(try slot(at: "2026-11-19 03:00:00", in: days).category == .sleep)
        #expect(try slot(at: "2026-11-18 22:00:00", in: days).category != .sleep)
    }

    @Test("a first day whose data ends still at 23:59, the phone down since 16:40: asleep from 22:30; for someone up at 10:00 that day, not yet")
    func nightInProgressFromTheAfternoon() throws {
        let days = try OfflineTimeline.days(device(schoolDayUntilHome + [(.stationary, home, 439)]), timeZone: zone)
        let night = try slot(at: "2026-11-18 23:30:00", in: days)
        #expect(night.category == .sleep && night.start == utc("2026-11-18 22:30:00"), "\(night)")
        #expect(try slot(at: "2026-11-18 21:00:00", in: days).category == .leisure)

        // Up at 10:00, at lectures 11:30 to 14:00, home from 14:22 with the phone down.
        let lateRiser = try OfflineTimeline.days(device([
            (.stationary, home, 600), (.walking, home, 2), (.stationary, home, 66), (.cycling, home, 20), (.walking, school, 2),
            (.stationary, school, 150), (.walking, school, 2), (.cycling, school, 20), (.walking, home, 2), (.stationary, home, 575),
        ]), timeZone: zone)
        #expect(try slot(at: "2026-11-18 23:30:00", in: lateRiser).category != .sleep)
    }
}

extension PersonDrawnSlotsTests {
    /// From Sunday 18:00, then school days from Monday to Thursday, the phone mostly left down at
    /// home: home at 15:46, walks at 18:21 and 20:23, then to bed with a walk at 20:58, or, on the
    /// evenings `nightWalks` (0 is Sunday's), still from 20:25 until a walk in the night at 23:48,
    /// or, on the evenings `stillFromSix`, from the walk at 18:21 until one in the night at 00:17;
    /// up at 07:00.
    func schoolWeek(nightWalks: Set<Int>, stillFromSix: Set<Int> = []) throws -> [DayTimeline] {
        var pieces: [(MotionActivity, GeoPoint, Double)] = [(.stationary, home, 143), (.walking, home, 2)]
        for evening in 0..<5 {
            if evening > 0 {
                pieces += [
                    (.walking, home, 2), (.stationary, home, 38), (.walking, home, 16), (.stationary, school, 214), (.walking, school, 2),
                    (.stationary, school, 238), (.walking, school, 16), (.stationary, home, 155), (.walking, home, 2),
                ]
                if stillFromSix.contains(evening) {
                    pieces += [(.stationary, home, 354), (.walking, home, 2), (.stationary, home, 401)]
                    continue
                }
                pieces += [(.stationary, home, 120), (.walking, home, 2)]
            }
            pieces += nightWalks.contains(evening) ? [(.stationary, home, 203), (.walking, home, 2), (.stationary, home, 430)]
                : [(.stationary, home, 33), (.walking, home, 2), (.stationary, home, 600)]
        }
        return try OfflineTimeline.days(device(pieces + [(.walking, home, 2), (.stationary, home, 30)], from: "2026-11-15 18:00:00"), timeZone: zone)
    }

    @Test("a child to bed at 21:00 whose phone lies still from 20:25 until a walk at 23:48 on Monday and Wednesday was in bed by 21:00, and those walks teach no bedtime: Tuesday's night still begins at 21:00")
    func walkInTheNightIsNoBedtime() throws {
        let days = try schoolWeek(nightWalks: [1, 3])
        let monday = try slot(at: "2026-11-16 22:30:00", in: days)
        #expect(monday.category == .sleep && monday.start <= utc("2026-11-16 21:00:00"), "\(monday)")
        let tuesday = try slot(at: "2026-11-17 22:30:00", in: days)
        #expect(tuesday.category == .sleep && tuesday.start == utc("2026-11-17 21:00:00"), "\(tuesday)")
        #expect(try slot(at: "2026-11-17 20:40:00", in: days).category != .sleep)
    }

    @Test("a child to bed at 21:00 whose phone lies still from 18:23 on Tuesday until a walk in the night at 00:17 spent the evening up: the night begins at 21:00, not at 18:23")
    func stillFromTheEveningUntilAWalkInTheNight() throws {
        let days = try schoolWeek(nightWalks: [], stillFromSix: [2])
        #expect(try slot(at: "2026-11-17 19:30:00", in: days).category != .sleep)
        let tuesday = try slot(at: "2026-11-17 22:30:00", in: days)
        #expect(tuesday.category == .sleep && tuesday.start == utc("2026-11-17 21:00:00"), "\(tuesday)")
        #expect(try slot(at: "2026-11-18 03:00:00", in: days).category == .sleep)
    }
}
