import Foundation
@testable import GuardianTimeline
import GuardianTimelineEvaluation
import Testing

/// A device's first day (no history) drawn as a person would: evenings apart from nights, a
/// lunch out apart from work, a first school day as school, a workout as exercise, a night
/// away as sleep.
@Suite("slots a person would draw from the first day")
struct PersonDrawnSlotsTests {
    let zone = TimeZone(identifier: "UTC")!
    let home = GeoPoint(lat: 52.5200, lon: 13.4050)
    let school = GeoPoint(lat: 52.5290, lon: 13.4050)
    let office = GeoPoint(lat: 52.5450, lon: 13.3600)
    /// 200 m north of the office.
    let cafe = GeoPoint(lat: 52.5450 + 200 / 111_195.0, lon: 13.3600)
    let gymPlace = GeoPoint(lat: 52.5300, lon: 13.4300)
    /// 700 m north of home, and halfway there.
    let shop = GeoPoint(lat: 52.5200 + 700 / 111_195.0, lon: 13.4050)
    let halfwayToTheShop = GeoPoint(lat: 52.5200 + 350 / 111_195.0, lon: 13.4050)
    let hotel = GeoPoint(lat: 51.5074, lon: -0.1278)

    /// A day at home from 07:30 (up at 07:32), out by car after `minutes` more, two hours' drive to the hotel.
    func driveToHotel(after minutes: Double) -> [(MotionActivity, GeoPoint, Double)] {
        [(.stationary, home, 450), (.walking, home, 2), (.stationary, home, minutes), (.walking, home, 3), (.automotive, home, 120), (.walking, hotel, 3)]
    }

    /// The morning after a hotel night: a 20-minute walk to an office near it, four hours there.
    var walkToOfficeNearHotel: [(MotionActivity, GeoPoint, Double)] {
        [(.walking, hotel, 20), (.stationary, GeoPoint(lat: 51.5150, lon: -0.1278), 240)]
    }

    /// A phone's events for consecutive pieces (activity, place where it begins, minutes) from
    /// Wednesday 2026-11-18 00:00 UTC: motion every 30 s, a fix wherever the place changes.
    func device(_ pieces: [(MotionActivity, GeoPoint, Double)], from start: String = "2026-11-18 00:00:00") -> OfflineTimeline.DeviceEvents {
        var events = OfflineTimeline.DeviceEvents(deviceId: "first-day")
        var time = utc(start)
        for (activity, place, minutes) in pieces {
            if events.locations.last?.location != place { events.locations.append(LocationEvent(timestamp: time, location: place)) }
            let end = time + Int64(minutes * 60_000)
            while time < end {
                events.motion.append(MotionEvent(timestamp: time, activity: activity))
                time += 30_000
            }
            time = end
        }
        return events
    }

    /// `count` days from Wednesday with the phone on a table at home all the time: still from
    /// midnight, up for a two-minute walk at each of `walks(day)` (local minutes, 0 the first
    /// day), and asleep from 23:00 until 07:00 the morning after the last day.
    func daysAtHome(_ count: Int = 4, walks: (Int) -> [Double]) -> OfflineTimeline.DeviceEvents {
        var pieces: [(MotionActivity, GeoPoint, Double)] = []
        var now = 0.0
        for day in 0..<count {
            let midnight = Double(day) * 1440
            for walk in walks(day) + [23 * 60] {
                pieces += [(.stationary, home, midnight + walk - now), (.walking, home, 2)]
                now = midnight + walk + 2
            }
        }
        return device(pieces + [(.stationary, home, Double(count) * 1440 + 420 - now)])
    }

    func slot(at text: String, in days: [DayTimeline]) throws -> DayTimeline.Slot {
        try slot(at: utc(text), in: days)
    }

    func slot(at instant: Int64, in days: [DayTimeline]) throws -> DayTimeline.Slot {
        try #require(days.flatMap(\.slots).first { $0.start <= instant && instant < $0.end })
    }

    /// A child's first school day until coming home at 16:40.
    var schoolDayUntilHome: [(MotionActivity, GeoPoint, Double)] {
        [
            (.stationary, home, 430), (.walking, home, 2), (.stationary, home, 20), (.walking, home, 16),
            (.stationary, school, 120), (.walking, school, 2), (.stationary, school, 150), (.walking, school, 2),
            (.stationary, school, 238), (.walking, school, 20),
        ]
    }

    /// A child's first school day: home at 16:40, the evening on the sofa, asleep at 20:32.
    func schoolDay(phoneDownAllEvening: Bool) -> OfflineTimeline.DeviceEvents {
        var pieces = schoolDayUntilHome
        pieces += phoneDownAllEvening ? [(.stationary, home, 850)] : [(.stationary, home, 230), (.walking, home, 2), (.stationary, home, 618)]
        return device(pieces)
    }

    @Test("a first school day is school, the evening at home free time, the night sleep", arguments: [false, true])
    func firstSchoolDay(phoneDownAllEvening: Bool) throws {
        let days = try OfflineTimeline.days(schoolDay(phoneDownAllEvening: phoneDownAllEvening), timeZone: zone)
        #expect(try slot(at: "2026-11-18 10:00:00", in: days).category == .work)
        #expect(try slot(at: "2026-11-18 15:00:00", in: days).category == .work)
        #expect(try slot(at: "2026-11-18 18:00:00", in: days).category == .leisure)
        // The night begins with the last walk about the flat, else at 22:30.
        let night = try slot(at: "2026-11-18 23:30:00", in: days)
        #expect(night.category == .sleep)
        #expect(night.start == (phoneDownAllEvening ? utc("2026-11-18 22:30:00") : utc("2026-11-18 20:32:00")))
        #expect(try slot(at: "2026-11-18 \(phoneDownAllEvening ? "21:30" : "20:00"):00", in: days).category == .leisure)
        #expect(try slot(at: "2026-11-18 03:00:00", in: days).category == .sleep)
        #expect(days.allSatisfy { day in zip(day.slots, day.slots.dropFirst()).allSatisfy { $0.end == $1.start } })
    }

    /// A day from `start` at home until 11:06, cycling to two and a half hours of lectures from 11:30, home at 14:24.
    func lectureDay(from start: String = "2026-11-18 00:00:00") -> OfflineTimeline.DeviceEvents {
        device([
            (.stationary, home, 600), (.walking, home, 2), (.stationary, home, 66), (.cycling, home, 20), (.walking, school, 2),
            (.stationary, school, 150), (.walking, school, 2), (.cycling, school, 20), (.walking, home, 2),
            (.stationary, home, 300), (.walking, home, 2), (.stationary, home, 600),
        ], from: start)
    }

    @Test("a student's first weekday: two and a half hours of lectures from 11:30 are school, not a visit")
    func firstLectures() throws {
        let days = try OfflineTimeline.days(lectureDay(), timeZone: zone)
        let lectures = try slot(at: "2026-11-18 13:00:00", in: days)
        #expect(lectures.category == .work)
        #expect(lectures.start == utc("2026-11-18 11:30:00"))
    }

    @Test("a device whose data begins on a Saturday: two and a half hours at a place away from home are a visit, not work (no weekday is seen)")
    func firstSaturdayHasNoWork() throws {
        let days = try OfflineTimeline.days(lectureDay(from: "2026-11-21 00:00:00"), timeZone: zone)
        #expect(try slot(at: "2026-11-21 13:00:00", in: days).category != .work)
    }

    @Test("a lunch at a café 200 m from the office is its own slot, food, between two work slots")
    func lunchNearWork() throws {
        let days = try OfflineTimeline.days(officeDayWithLunchOut(walk: 4, lunch: 25, afternoon: 275), timeZone: zone)
        let lunch = try slot(at: "2026-11-18 12:00:00", in: days)
        #expect(lunch.category == .food)
        #expect(lunch.end - lunch.start < 40 * minute)
        #expect(try slot(at: "2026-11-18 10:00:00", in: days).category == .work)
        #expect(try slot(at: "2026-11-18 15:00:00", in: days).category == .work)
    }

    @Test("an hour at the gym, short stays between walks to the next machine, is exercise")
    func gym() throws {
        var pieces: [(MotionActivity, GeoPoint, Double)] = [(.stationary, home, 450), (.walking, home, 2), (.stationary, home, 620)]
        pieces += [(.walking, home, 3), (.cycling, home, 12), (.walking, gymPlace, 2)]
        for _ in 0..<8 { pieces += [(.stationary, gymPlace, 6), (.walking, gymPlace, 2)] }
        pieces += [(.cycling, gymPlace, 12), (.walking, home, 2), (.stationary, home, 240), (.walking, home, 2), (.stationary, home, 500)]
        let days = try OfflineTimeline.days(device(pieces), timeZone: zone)
        let workout = try slot(at: "2026-11-18 18:30:00", in: days)
        #expect(workout.category == .exercise)
        #expect(workout.end - workout.start >= 50 * minute)
    }

    @Test("a night in a hotel far from home is sleep")
    func nightAway() throws {
        let days = try OfflineTimeline.days(device(driveToHotel(after: 600) + [(.stationary, hotel, 200), (.walking, hotel, 2), (.stationary, hotel, 480)]), timeZone: zone)
        #expect(try slot(at: "2026-11-19 03:00:00", in: days).category == .sleep)
    }

    @Test("a walk at 05:24 in a hotel night, still until walking to the office at 08:42: the night goes on until 08:42")
    func hotelNightBrokenByAWalk() throws {
        let days = try OfflineTimeline.days(device(driveToHotel(after: 600) + [
            (.stationary, hotel, 200), (.walking, hotel, 2), (.stationary, hotel, 384), (.walking, hotel, 2), (.stationary, hotel, 196),
        ] + walkToOfficeNearHotel), timeZone: zone)
        #expect(try slot(at: "2026-11-19 03:00:00", in: days).category == .sleep)
        let morning = try slot(at: "2026-11-19 07:00:00", in: days)
        #expect(morning.category == .sleep && morning.end >= utc("2026-11-19 08:40:00"))
    }

    @Test("a night at a hotel: out for dinner from 20:02 to 21:05, the walk there and back all it shows, is dinner, an hour long")
    func dinnerOnANightAway() throws {
        let days = try OfflineTimeline.days(device(driveToHotel(after: 540) + [
            (.stationary, hotel, 82), (.walking, hotel, 2), (.stationary, hotel, 63), (.walking, hotel, 2), (.stationary, hotel, 143),
            (.walking, hotel, 2), (.stationary, hotel, 450),
        ] + walkToOfficeNearHotel), timeZone: zone)
        let dinner = try slot(at: "2026-11-18 20:30:00", in: days)
        #expect(dinner.category == .food)
        #expect(abs(dinner.start - utc("2026-11-18 20:02:00")) <= 3 * 60_000 && abs(dinner.end - utc("2026-11-18 21:05:00")) <= 3 * 60_000)
        #expect(try slot(at: "2026-11-18 19:30:00", in: days).category != .food)
        #expect(try slot(at: "2026-11-18 22:00:00", in: days).category != .food)
        #expect(try slot(at: "2026-11-19 03:00:00", in: days).category == .sleep)
    }

    @Test("arriving at a hotel at 18:58: the first stay is checking in, dinner the stay after the walk at 19:44")
    func checkingInBeforeDinner() throws {
        let days = try OfflineTimeline.days(device(driveToHotel(after: 560) + [
            (.stationary, hotel, 46), (.walking, hotel, 2), (.stationary, hotel, 57), (.walking, hotel, 2), (.stationary, hotel, 645),
        ] + walkToOfficeNearHotel), timeZone: zone)
        #expect(try slot(at: "2026-11-18 19:20:00", in: days).category != .food)
        let dinner = try slot(at: "2026-11-18 20:15:00", in: days)
        #expect(dinner.category == .food && dinner.start == utc("2026-11-18 19:46:00"))
        #expect(abs(dinner.end - utc("2026-11-18 20:43:00")) <= 3 * 60_000)
        #expect(try slot(at: "2026-11-19 03:00:00", in: days).category == .sleep)
    }

    @Test("the evaluation scores first days and first three days without history, side by side")
    func coldStart() throws {
        let data = LabelledDays(people: SyntheticPerson.Routine.allCases.count, days: 4, seed: 5, routines: SyntheticPerson.Routine.allCases)
        #expect(Set(data.people.map(\.person.routine)) == Set(SyntheticPerson.Routine.allCases))
        for person in data.people {
            #expect(person.events.motion.count > 2_000)
            #expect(zip(person.truth, person.truth.dropFirst()).allSatisfy { $0.end == $1.start && $0.category != $1.category })
        }
        let evaluation = try TimelineEvaluation(data, stages: TimelineEvaluation.Stage.allCases)
        #expect(evaluation.stages[.firstDay] != nil && evaluation.stages[.firstThreeDays] != nil && evaluation.stages[.afterTwoWeeks] == nil)
        let first = try #require(evaluation.stages[.firstDay])
        #expect(first.byRoutine.count == SyntheticPerson.Routine.allCases.count)
        #expect(first.overall.totalTime < evaluation.overall.totalTime)
        #expect(evaluation.report.contains("first 3 days"))
        // The newer kinds' people, split by what their phone shows at home, add up to them.
        let newer = first.byRoutine.filter { !SyntheticPerson.Routine.everyday.contains($0.key) }.values.reduce(Int64(0)) { $0 + $1.totalTime }
        let split = try #require(evaluation.byPhoneAtHome[.firstDay])
        #expect(split.values.reduce(Int64(0)) { $0 + $1.totalTime } == newer)
        for kind in split.keys { #expect(evaluation.report.contains(kind.rawValue)) }
        // Each newer kind's people are named by their phone at home, in the report and beside a goal's lowest kind.
        let phones = evaluation.phonesAtHome
        #expect(phones.keys.sorted { $0.rawValue < $1.rawValue } == first.byRoutine.keys.filter { !SyntheticPerson.Routine.everyday.contains($0) }.sorted { $0.rawValue < $1.rawValue })
        #expect(phones.values.reduce(0) { $0 + $1.count } == data.people.filter { !SyntheticPerson.Routine.everyday.contains($0.person.routine) }.count)
        #expect(TimelineEvaluation.describe([.tableSilent, .pocket, .tableSilent]) == "phone in a pocket, table, no charger ×2")
        for (routine, kinds) in phones { #expect(evaluation.stageReport.contains(routine.rawValue.padding(toLength: 22, withPad: " ", startingAt: 0) + TimelineEvaluation.describe(kinds))) }
        // With the truth beside it, a listing marks what the person did as found or missed.
        let person = data.people[0]
        let listing = try #require(evaluation.listing(of: person.person.deviceId, truth: true)).split(separator: "\n")
        let truthLines = listing.filter { $0.hasPrefix("    > ") || $0.hasPrefix("    ! ") }
        #expect((person.truth.count - 1...person.truth.count).contains(truthLines.count))
        #expect(truthLines.contains { $0.hasPrefix("    > ") })
        #expect(try #require(evaluation.listing(of: person.person.deviceId)).split(separator: "\n").count == listing.count - truthLines.count)
        // The established routines' people are who they were before the newer ones came.
        #expect(LabelledDays.training(days: 2).people.map(\.events) == LabelledDays(people: 6, days: 2, seed: LabelledDays.trainingSeed).people.map(\.events))
    }

    @Test("with the device's time zone (evenings and nights split), generating step by step equals a full rebuild")
    func incrementalWithNightSplits() throws {
        let data = LabelledDays(people: 4, days: 4, seed: 23, routines: [.homeWorker, .student])
        let generator = TimelineGenerator(timeZone: data.timeZone)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = data.timeZone
        var bedtimeCuts = 0, updates = 0
        for person in data.people {
            let events = person.events
            let end = events.motion.last!.timestamp
            var state = TimelineState()
            var instant = data.dayStarts[0]
            while instant < end {
                instant = min(instant + 197 * minute, end)
                let from = state.resumeFrom
                let motion = events.motion.filter { $0.timestamp <= instant && $0.timestamp >= (from ?? .min) }
                let fixes = events.locations.filter { $0.timestamp <= instant }
                let first = from.flatMap { from in fixes.lastIndex { $0.timestamp <= from } } ?? 0
                let all = events.motion.filter { $0.timestamp <= instant }
                let full = generator.rebuild(motion: all, locations: fixes, until: instant).state
                if let update = generator.update(state, motion: motion, locations: Array(fixes[first...]), until: instant) {
                    state = update.state
                    updates += 1
                } else {
                    state = full
                }
                #expect(state.slots == full.slots)
            }
            bedtimeCuts += state.slots.filter { calendar.dateComponents([.hour, .minute], from: Date(milliseconds: $0.start)) == DateComponents(hour: 22, minute: 0) }.count
        }
        #expect(bedtimeCuts > 0 && updates > 40)
    }
}
