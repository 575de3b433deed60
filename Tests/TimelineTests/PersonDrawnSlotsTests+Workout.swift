import Foundation
@testable import GuardianTimeline
import Testing

/// An hour at the gym is exercise though it is parted by a run on the treadmill and walks to the
/// next machine long enough to be slots of their own.
extension PersonDrawnSlotsTests {
    @Test("an hour at the gym, a treadmill run and walks about it between short stays, is exercise throughout")
    func gymWithTreadmill() throws {
        var pieces: [(MotionActivity, GeoPoint, Double)] = [(.stationary, home, 450), (.walking, home, 2), (.stationary, home, 620)]
        pieces += [(.walking, home, 3), (.cycling, home, 12), (.walking, gymPlace, 2)]  // at the gym from 18:09
        pieces += [(.stationary, gymPlace, 8), (.running, gymPlace, 20), (.walking, gymPlace, 5), (.stationary, gymPlace, 10),
                   (.walking, gymPlace, 5), (.stationary, gymPlace, 12)]  // until 19:09
        pieces += [(.walking, gymPlace, 2), (.cycling, gymPlace, 12), (.walking, home, 2), (.stationary, home, 240), (.walking, home, 2), (.stationary, home, 500)]
        let days = try OfflineTimeline.days(device(pieces), timeZone: zone)
        for instant in ["2026-11-18 18:12:00", "2026-11-18 18:40:00", "2026-11-18 18:50:00", "2026-11-18 19:00:00"] {
            #expect(try slot(at: instant, in: days).category == .exercise, "\(instant)")
        }
    }

    @Test("an hour at the gym with twelve minutes' walking about it in the middle (the short stops in it too brief to part it) is exercise throughout")
    func gymWithALongWalkAboutIt() throws {
        var pieces: [(MotionActivity, GeoPoint, Double)] = [(.stationary, home, 450), (.walking, home, 2), (.stationary, home, 620)]
        pieces += [(.walking, home, 3), (.cycling, home, 12), (.walking, gymPlace, 2)]  // at the gym from 18:09
        pieces += [(.stationary, gymPlace, 12), (.walking, gymPlace, 1), (.stationary, gymPlace, 10), (.walking, gymPlace, 1), (.stationary, gymPlace, 12)]
        pieces += [(.walking, gymPlace, 12), (.stationary, gymPlace, 7), (.walking, gymPlace, 1), (.stationary, gymPlace, 7)]  // until 19:12
        pieces += [(.cycling, gymPlace, 12), (.walking, home, 2), (.stationary, home, 240), (.walking, home, 2), (.stationary, home, 500)]
        let days = try OfflineTimeline.days(device(pieces), timeZone: zone)
        for instant in ["2026-11-18 18:12:00", "2026-11-18 18:40:00", "2026-11-18 18:50:00", "2026-11-18 19:08:00"] {
            #expect(try slot(at: instant, in: days).category == .exercise, "\(instant)")
        }
    }

    @Test("at the gym with the phone in a locker (still for 35 minutes, then two short walks) is exercise when the gym was a workout on another day; on its own, free time")
    func gymWithThePhoneInALocker() throws {
        let workout: [(MotionActivity, GeoPoint, Double)] = [
            (.stationary, gymPlace, 8), (.running, gymPlace, 20), (.walking, gymPlace, 5), (.stationary, gymPlace, 10),
            (.walking, gymPlace, 5), (.stationary, gymPlace, 12),
        ]
        let locker: [(MotionActivity, GeoPoint, Double)] = [
            (.stationary, gymPlace, 35), (.walking, gymPlace, 2), (.stationary, gymPlace, 8), (.walking, gymPlace, 2), (.stationary, gymPlace, 13),
        ]
        // A day: up at 07:30, at home until 18:00, cycling to the gym (there from 18:17), an hour there, home again until 07:30.
        func day(_ gym: [(MotionActivity, GeoPoint, Double)]) -> [(MotionActivity, GeoPoint, Double)] {
            [(.walking, home, 2), (.stationary, home, 628), (.walking, home, 3), (.cycling, home, 12), (.walking, gymPlace, 2)] + gym
                + [(.walking, gymPlace, 2), (.cycling, gymPlace, 12), (.walking, home, 2), (.stationary, home, 240), (.walking, home, 2), (.stationary, home, 475)]
        }
        let lockerDays = try OfflineTimeline.days(device([(.stationary, home, 450)] + day(workout) + day(locker)), timeZone: zone)
        for instant in ["2026-11-19 18:30:00", "2026-11-19 19:05:00"] {
            #expect(try slot(at: instant, in: lockerDays).category == .exercise, "\(instant)")
        }
        let lockerOnly = try OfflineTimeline.days(device([(.stationary, home, 450)] + day(locker)), timeZone: zone)
        #expect(try slot(at: "2026-11-18 18:30:00", in: lockerOnly).category != .exercise)
    }

    @Test("three hours walking about a zoo, resting now and then, are an outing, not a workout, though the stretch between the first rest and the last is two hours; driven there and home, one leisure slot from arriving to leaving")
    func zooIsNoWorkout() throws {
        let zoo = GeoPoint(lat: 52.5080, lon: 13.3370)
        var pieces: [(MotionActivity, GeoPoint, Double)] = [(.stationary, home, 450), (.walking, home, 2), (.stationary, home, 400)]
        pieces += [(.walking, home, 3), (.automotive, home, 20), (.walking, zoo, 38)]  // at the zoo from 14:35
        pieces += [(.stationary, zoo, 7), (.walking, zoo, 16), (.stationary, zoo, 8), (.walking, zoo, 20), (.stationary, zoo, 10),
                   (.walking, zoo, 17), (.stationary, zoo, 12), (.walking, zoo, 33)]  // until 17:16
        pieces += [(.automotive, zoo, 20), (.walking, home, 2), (.stationary, home, 240), (.walking, home, 2), (.stationary, home, 500)]
        let days = try OfflineTimeline.days(device(pieces), timeZone: zone)
        for instant in ["2026-11-18 15:30:00", "2026-11-18 16:30:00"] {
            #expect(try slot(at: instant, in: days).category != .exercise, "\(instant)")
        }
        // Driven there and driven home: one outing on foot, its stops no stops on the way.
        let outing = try slot(at: "2026-11-18 15:40:00", in: days)
        #expect(outing.category == .leisure)
        #expect(outing.start == utc("2026-11-18 14:35:00") && outing.end == utc("2026-11-18 17:16:00"), "\(outing)")
    }

    @Test("a family's afternoon out, driven there: two hours of ten-minute stops and walks of fourteen minutes between them is an outing on foot, not a workout")
    func afternoonOutIsNoWorkout() throws {
        let lake = GeoPoint(lat: 52.5200 + 6_000 / 111_195.0, lon: 13.4050)
        var pieces: [(MotionActivity, GeoPoint, Double)] = [(.stationary, home, 450), (.walking, home, 2), (.stationary, home, 400)]
        pieces += [(.walking, home, 3), (.automotive, home, 20), (.walking, lake, 3)]  // at the lake from 14:38
        for _ in 0..<5 { pieces += [(.stationary, lake, 10), (.walking, lake, 14)] }
        pieces += [(.stationary, lake, 10)]  // until 16:48
        pieces += [(.walking, lake, 2), (.automotive, lake, 20), (.walking, home, 2), (.stationary, home, 240), (.walking, home, 2), (.stationary, home, 500)]
        let days = try OfflineTimeline.days(device(pieces), timeZone: zone)
        for instant in ["2026-11-18 14:45:00", "2026-11-18 15:30:00", "2026-11-18 16:30:00"] {
            #expect(try slot(at: instant, in: days).category == .leisure, "\(instant)")
        }
    }

    @Test("an hour at the gym in two stays of 20 minutes, eleven minutes' walking about it after each, is exercise; two such stays parted by a short walk (a waiting room, then the doctor) are not")
    func gymInTwoStays() throws {
        func visit(_ walk: Double) throws -> [DayTimeline] {
            var pieces: [(MotionActivity, GeoPoint, Double)] = [(.stationary, home, 450), (.walking, home, 2), (.stationary, home, 620)]
            pieces += [(.walking, home, 3), (.cycling, home, 12), (.walking, gymPlace, 2)]  // there from 18:09
            pieces += [(.stationary, gymPlace, 20), (.walking, gymPlace, walk), (.stationary, gymPlace, 22), (.walking, gymPlace, walk)]
            pieces += [(.cycling, gymPlace, 12), (.walking, home, 2), (.stationary, home, 240), (.walking, home, 2), (.stationary, home, 500)]
            return try OfflineTimeline.days(device(pieces), timeZone: zone)
        }
        let gym = try visit(11)
        for instant in ["2026-11-18 18:20:00", "2026-11-18 18:35:00", "2026-11-18 18:50:00"] {
            #expect(try slot(at: instant, in: gym).category == .exercise, "\(instant)")
        }
        let doctor = try visit(3)
        for instant in ["2026-11-18 18:20:00", "2026-11-18 18:40:00"] {
            #expect(try slot(at: instant, in: doctor).category != .exercise, "\(instant)")
        }
    }

    @Test("an hour at the gym in four stays of 9, 24, 12 and 15 minutes, getting up between them, is exercise; three stays (a waiting room, the doctor, the desk) are not")
    func gymInFourStays() throws {
        func visit(_ stays: [Double]) throws -> [DayTimeline] {
            var pieces: [(MotionActivity, GeoPoint, Double)] = [(.stationary, home, 450), (.walking, home, 2), (.stationary, home, 620)]
            pieces += [(.walking, home, 3), (.cycling, home, 12), (.walking, gymPlace, 2)]  // there from 18:09
            for stay in stays { pieces += [(.stationary, gymPlace, stay), (.walking, gymPlace, 1)] }
            pieces += [(.cycling, gymPlace, 12), (.walking, home, 2), (.stationary, home, 240), (.walking, home, 2), (.stationary, home, 500)]
            return try OfflineTimeline.days(device(pieces), timeZone: zone)
        }
        let gym = try visit([9, 24, 12, 15])
        for instant in ["2026-11-18 18:12:00", "2026-11-18 18:30:00", "2026-11-18 18:50:00", "2026-11-18 19:10:00"] {
            #expect(try slot(at: instant, in: gym).category == .exercise, "\(instant)")
        }
        let doctor = try visit([20, 15, 5])
        for instant in ["2026-11-18 18:20:00", "2026-11-18 18:40:00"] {
            #expect(try slot(at: instant, in: doctor).category != .exercise, "\(instant)")
        }
    }
}
