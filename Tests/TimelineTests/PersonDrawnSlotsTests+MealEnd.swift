import Foundation
@testable import GuardianTimeline
import Testing

/// A meal with the phone on a table: only getting up from it shows, or nothing (`UsualMeal`).
extension PersonDrawnSlotsTests {
    /// Wednesday: up at 07:00, breakfast, a walk out, then the phone on a table at home from
    /// 07:52 until getting up at `getUp` (local minutes) for a walk of `walk` minutes (a short one
    /// about the flat, or a long one out), and still again until the night.
    func stillMorning(getUp: Double, walk: Double = 2) -> OfflineTimeline.DeviceEvents {
        device([
            (.stationary, home, 420), (.walking, home, 2), (.stationary, home, 20), (.walking, home, 30),
            (.stationary, home, getUp - 472), (.walking, home, walk), (.stationary, home, 1440 + 420 - getUp - walk),
        ])
    }

    @Test("getting up at a meal time after a long still stay ends a meal of about half an hour; at another time it is no meal")
    func mealEndedByGettingUp() throws {
        let lunch = try OfflineTimeline.days(stillMorning(getUp: 13 * 60 + 10), timeZone: zone)
        let meal = try slot(at: "2026-11-18 12:50:00", in: lunch)
        #expect(meal.category == .food)
        // The 35 minutes before the stay ends (with the walk too short to be a slot of its own).
        #expect(meal.start == utc("2026-11-18 12:37:00"))
        #expect(meal.end == utc("2026-11-18 13:12:00"))
        #expect(try slot(at: "2026-11-18 11:00:00", in: lunch).category != .food)

        // Getting up at 15:40 ends no meal; the still stay through lunch time has lunch at the usual time.
        let afternoon = try OfflineTimeline.days(stillMorning(getUp: 15 * 60 + 40), timeZone: zone)
        let day = afternoon.flatMap(\.slots).filter { $0.end > utc("2026-11-18 08:00:00") && $0.start < utc("2026-11-18 15:40:00") }
        #expect(day.filter { $0.category == .food }.map(\.start) == [utc("2026-11-18 12:30:00")])
    }

    /// Wednesday: up at 07:30, then the phone on a table all day and all evening, `walks`
    /// about the flat (local minutes) the only things it shows, asleep from 23:00.
    func stillDay(walks: [Double]) -> OfflineTimeline.DeviceEvents {
        var pieces: [(MotionActivity, GeoPoint, Double)] = [(.stationary, home, 450), (.walking, home, 2)]
        var now = 452.0
        for walk in walks + [23 * 60] {
            pieces += [(.stationary, home, walk - now), (.walking, home, 2)]
            now = walk + 2
        }
        return device(pieces + [(.stationary, home, 1440 + 420 - now)])
    }

    @Test("a day still at home through the meal times has lunch at 12:30 and dinner at 19:00, unless the phone shows the meal")
    func usualMeals() throws {
        let unseen = try OfflineTimeline.days(stillDay(walks: [15 * 60]), timeZone: zone)
        for (time, start) in [("12:40", "12:30"), ("19:10", "19:00")] {
            let meal = try slot(at: "2026-11-18 \(time):00", in: unseen)
            #expect(meal.category == .food)
            #expect(meal.start == utc("2026-11-18 \(start):00"))
            #expect(meal.end == meal.start + 35 * 60_000)
        }
        #expect(try slot(at: "2026-11-18 17:30:00", in: unseen).category == .leisure)
        #expect(try slot(at: "2026-11-18 21:00:00", in: unseen).category == .leisure)

        // Dinner seen from 18:00 to 18:40 (getting up to it and from it): no other dinner.
        let seen = try OfflineTimeline.days(stillDay(walks: [15 * 60, 18 * 60, 18 * 60 + 40]), timeZone: zone)
        #expect(try slot(at: "2026-11-18 18:20:00", in: seen).category == .food)
        #expect(try slot(at: "2026-11-18 19:10:00", in: seen).category == .leisure)
    }

    @Test("of two short stays between walks at dinner time, the one as long as a meal is dinner, though the other starts nearer 19:15")
    func dinnerLastsLikeAMeal() throws {
        // Up at 19:05 for 20 minutes, then 19:29 to 20:04 (35 minutes), then the evening.
        let days = try OfflineTimeline.days(stillDay(walks: [15 * 60, 19 * 60 + 5, 19 * 60 + 27, 20 * 60 + 4]), timeZone: zone)
        let dinner = try slot(at: "2026-11-18 19:45:00", in: days)
        #expect(dinner.category == .food)
        #expect(abs(dinner.start - utc("2026-11-18 19:28:00")) <= 2 * 60_000)
        #expect(try slot(at: "2026-11-18 19:15:00", in: days).category == .leisure)
        #expect(days.flatMap(\.slots).filter { $0.category == .food && $0.start > utc("2026-11-18 17:00:00") }.count == 1)
    }

    @Test("getting up alone ends a meal near the usual hour; at 18:26 or 20:32 it is a walk about the flat, and dinner is at 19:00")
    func oneEndOfAMeal() throws {
        let early = try OfflineTimeline.days(stillDay(walks: [15 * 60, 18 * 60 + 26]), timeZone: zone)
        #expect(try slot(at: "2026-11-18 18:10:00", in: early).category == .leisure)
        let usual = try slot(at: "2026-11-18 19:10:00", in: early)
        #expect(usual.category == .food && usual.start == utc("2026-11-18 19:00:00"))

        // Still from 17:51 until 20:32: getting up so late ends no dinner, and the day still has one.
        let late = try OfflineTimeline.days(stillDay(walks: [15 * 60, 17 * 60 + 51, 20 * 60 + 32]), timeZone: zone)
        #expect(try slot(at: "2026-11-18 20:10:00", in: late).category == .leisure)
        let lateUsual = try slot(at: "2026-11-18 19:10:00", in: late)
        #expect(lateUsual.category == .food && lateUsual.start == utc("2026-11-18 19:00:00"))

        let near = try OfflineTimeline.days(stillDay(walks: [15 * 60, 19 * 60 + 40]), timeZone: zone)
        let dinner = try slot(at: "2026-11-18 19:20:00", in: near)
        // The 35 minutes before getting up (the walk too short to be a slot of its own).
        #expect(dinner.category == .food && dinner.start == utc("2026-11-18 19:07:00"))
    }

    @Test("coming home from a trip at 19:21 or 19:29 (dinner time), dinner comes first, past 20:00 too; coming home at 17:00, dinner is at the usual 19:00")
    func dinnerOnComingHome() throws {
        /// Wednesday: still at home until 08:00, out from `leave` (local minutes) to the gym by bike for
        /// an hour, home by bike at `leave` + 86, then the phone on a table until the night.
        func evening(leave: Double) -> OfflineTimeline.DeviceEvents {
            device([
                (.stationary, home, 480), (.walking, home, 2), (.stationary, home, leave - 482), (.walking, home, 2), (.cycling, home, 12),
                (.walking, gymPlace, 2), (.stationary, gymPlace, 54), (.walking, gymPlace, 2), (.cycling, gymPlace, 12), (.walking, home, 2),
                (.stationary, home, 1440 + 420 - leave - 86),
            ])
        }
        let late = try OfflineTimeline.days(evening(leave: 17 * 60 + 55), timeZone: zone)
        let dinner = try slot(at: "2026-11-18 19:40:00", in: late)
        #expect(dinner.category == .food && dinner.start == utc("2026-11-18 19:21:00") && dinner.end == utc("2026-11-18 19:56:00"))
        #expect(try slot(at: "2026-11-18 20:30:00", in: late).category == .leisure)

        // Home at 19:29: the evening's pieces are cut at 20:00 too, and dinner goes on past it.
        let later = try OfflineTimeline.days(evening(leave: 18 * 60 + 3), timeZone: zone)
        let laterDinner = try slot(at: "2026-11-18 19:40:00", in: later)
        #expect(laterDinner.category == .food && laterDinner.start == utc("2026-11-18 19:29:00") && laterDinner.end == utc("2026-11-18 20:04:00"))
        #expect(try slot(at: "2026-11-18 20:30:00", in: later).category == .leisure)

        let early = try OfflineTimeline.days(evening(leave: 15 * 60 + 34), timeZone: zone)
        #expect(try slot(at: "2026-11-18 17:15:00", in: early).category == .leisure)
        let usual = try slot(at: "2026-11-18 19:10:00", in: early)
        #expect(usual.category == .food && usual.start == utc("2026-11-18 19:00:00"))
    }

    @Test("home from a visit at 19:01, up at 19:35 and at 20:13: dinner is 19:35 to 20:13, not the half hour on coming home")
    func dinnerAfterSettlingIn() throws {
        let days = try OfflineTimeline.days(device([
            (.stationary, home, 480), (.walking, home, 2), (.stationary, home, 538), (.walking, home, 2), (.automotive, home, 20),
            (.walking, gymPlace, 2), (.stationary, gymPlace, 78), (.walking, gymPlace, 2), (.automotive, gymPlace, 17), (.walking, home, 2),
            (.stationary, home, 32), (.walking, home, 2), (.stationary, home, 36), (.walking, home, 2), (.stationary, home, 645),
        ]), timeZone: zone)
        #expect(try slot(at: "2026-11-18 19:20:00", in: days).category == .leisure)
        let dinner = try slot(at: "2026-11-18 19:50:00", in: days)
        #expect(dinner.category == .food)
        #expect(abs(dinner.start - utc("2026-11-18 19:36:00")) <= 2 * 60_000)
    }

    @Test("a stay begun and ended by getting up at a meal time is the meal, not the end of a later still stay")
    func mealBegunByGettingUpWins() throws {
        let days = try OfflineTimeline.days(device([
            (.stationary, home, 420), (.walking, home, 2), (.stationary, home, 20), (.walking, home, 30),
            (.stationary, home, 248), (.walking, home, 2), (.stationary, home, 40), (.walking, home, 2),
            (.stationary, home, 76), (.walking, home, 2), (.stationary, home, 600),
        ]), timeZone: zone)
        #expect(try slot(at: "2026-11-18 12:20:00", in: days).category == .food)
        #expect(try slot(at: "2026-11-18 13:40:00", in: days).category != .food)
    }

    @Test("home at 11:39, lunch from 12:32 to 13:13 between two walks, a walk out and back at 13:35 and 37 minutes home before driving off: one lunch, not a second after the walk")
    func oneLunchADay() throws {
        let street = GeoPoint(lat: home.lat + 300 / 111_195.0, lon: home.lon)
        let days = try OfflineTimeline.days(device([
            (.stationary, home, 420), (.walking, home, 2), (.stationary, home, 178), (.walking, home, 2), (.automotive, home, 20),
            (.stationary, gymPlace, 60), (.automotive, gymPlace, 17), (.stationary, home, 50), (.walking, home, 3), (.stationary, home, 41),
            (.walking, home, 3), (.stationary, home, 19), (.walking, street, 4), (.walking, home, 4), (.stationary, home, 37),
            (.automotive, home, 20), (.stationary, gymPlace, 180),
        ]), timeZone: zone)
        #expect(try slot(at: "2026-11-18 12:50:00", in: days).category == .food)
        #expect(try slot(at: "2026-11-18 14:00:00", in: days).category != .food)
        let lunches = days.flatMap(\.slots).filter { $0.category == .food && $0.start > utc("2026-11-18 11:00:00") && $0.start < utc("2026-11-18 15:00:00") }
        #expect(lunches.count == 1, "\(lunches)")
    }

    @Test("home through the usual lunch time and going out at 13:08: lunch was the half hour before; going out at 11:50 ends no meal")
    func mealBeforeGoingOut() throws {
        let afterLunch = try OfflineTimeline.days(stillMorning(getUp: 13 * 60 + 8, walk: 40), timeZone: zone)
        let meal = try slot(at: "2026-11-18 12:50:00", in: afterLunch)
        #expect(meal.category == .food)
        #expect(meal.start == utc("2026-11-18 12:33:00"))
        #expect(meal.end == utc("2026-11-18 13:08:00"))
        #expect(try slot(at: "2026-11-18 11:00:00", in: afterLunch).category != .food)

        // Out before the usual lunch time (12:30): the person eats later, out or back home.
        let beforeLunch = try OfflineTimeline.days(stillMorning(getUp: 11 * 60 + 50, walk: 40), timeZone: zone)
        #expect(try slot(at: "2026-11-18 11:30:00", in: beforeLunch).category != .food)
    }

    @Test("a child up from the table at 18:46 and from the sofa at 20:47 to go to bed: dinner is the stay before 18:46, not the one before bed")
    func noDinnerBeforeBed() throws {
        // A carried phone: up every 40 minutes through the day; home from 15:30.
        var walks = stride(from: 7 * 60 + 40.0, to: 18 * 60, by: 40).map { $0 }
        walks += [18 * 60 + 20, 18 * 60 + 46, 20 * 60 + 4, 20 * 60 + 47]
        var pieces: [(MotionActivity, GeoPoint, Double)] = [(.stationary, home, 420), (.walking, home, 2)]
        var now = 422.0
        for walk in walks {
            pieces += [(.stationary, home, walk - now), (.walking, home, 2)]
            now = walk + 2
        }
        let days = try OfflineTimeline.days(device(pieces + [(.stationary, home, 1440 + 420 - now)]), timeZone: zone)
        let dinner = try slot(at: "2026-11-18 18:30:00", in: days)
        #expect(dinner.category == .food)
        #expect(abs(dinner.start - utc("2026-11-18 18:22:00")) <= 2 * 60_000)
        #expect(try slot(at: "2026-11-18 20:20:00", in: days).category == .leisure)
        #expect(try slot(at: "2026-11-18 21:30:00", in: days).category == .sleep)
    }
}
