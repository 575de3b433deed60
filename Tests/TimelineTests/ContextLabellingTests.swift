import Foundation
@testable import GuardianTimeline
import GuardianTimelineEvaluation
import Testing

@Suite("places and labels from context")
struct ContextLabellingTests {
    static let week = LabelledDays.training(days: 7)
    let zone = week.timeZone

    func state(_ person: LabelledDays.PersonDays) -> TimelineState {
        let events = person.events
        let until = (events.motion.map(\.timestamp) + events.locations.map(\.timestamp)).max()!
        return TimelineGenerator().rebuild(motion: events.motion, locations: events.locations, until: until).state
    }

    @Test("home is where a device rests longest, work the other regular long stay, at whatever hour", arguments: week.people.indices)
    func places(_ index: Int) throws {
        let person = Self.week.people[index]
        let places = DevicePlaces.learn(from: state(person).spans, timeZone: zone)
        let home = try #require(places.home.map { places.places[$0].centre })
        let work = try #require(places.work.map { places.places[$0].centre })
        #expect(home.distance(to: person.person[.home]) < 150)
        #expect(work.distance(to: person.person[.work]) < 150)
        #expect(places.kind(of: person.person[.family]) != .home && places.kind(of: person.person[.family]) != .work)
    }

    @Test("a night worker's shifts are work and their daytime rest at home is sleep")
    func nightWorker() throws {
        let person = try #require(Self.week.people.first { $0.person.routine == .nightWorker })
        let days = try OfflineTimeline.days(person.events, timeZone: zone)
        let score = TimelineScore(days: days, truth: person, from: Self.week.dayStarts[0], to: Self.week.dayStarts[7])
        #expect(try #require(score.accuracy(of: .work)) >= 0.9)
        #expect(try #require(score.accuracy(of: .sleep)) >= 0.85)
        // The mornings after the Monday to Thursday nights, at 10:00 local, they are asleep at home.
        for day in 1...4 {
            let tenOClock = Self.week.dayStarts[day] + 10 * 60 * minute
            guard !person.noData.contains(where: { $0.contains(tenOClock) }) else { continue }
            #expect(person.category(from: tenOClock, to: tenOClock + minute) == .sleep)
            let slot = try #require(days.flatMap(\.slots).first { $0.start <= tenOClock && tenOClock < $0.end })
            #expect(slot.category == .sleep)
        }
        // And the nights at the hospital, at 03:00 local, are work.
        for day in 2...4 {
            let three = Self.week.dayStarts[day] + 3 * 60 * minute
            guard !person.noData.contains(where: { $0.contains(three) }) else { continue }
            #expect(days.flatMap(\.slots).first { $0.start <= three && three < $0.end }?.category == .work)
        }
    }

    @Test("drives, the walks to and from the car, and runs are labelled from their motion and neighbours")
    func movement() throws {
        let person = try #require(Self.week.people.first { $0.person.routine == .officeWorker })
        let labelled = try SlotClassifier.train(examples: [], timeZone: zone).label(state(person), timeZone: zone)
        let drives = labelled.spans.filter { $0.slot.activity == .automotive }
        #expect(!drives.isEmpty && drives.allSatisfy { $0.slot.category == .commute })
        let runs = labelled.spans.filter { $0.slot.activity == .running }
        #expect(runs.allSatisfy { $0.slot.category == .exercise })
        #expect(labelled.slots.filter { !$0.isGap }.allSatisfy { $0.category != .unknown })
    }

    @Test("a correction is applied first to the same kind of slot: same place, time of day, kind of day and guess")
    func correctionMemory() throws {
        let person = try #require(Self.week.people.first { $0.person.routine == .officeWorker })
        let spans = state(person).spans
        // The person calls their lunch out "work" (business lunches).
        let lunches = spans.filter { $0.slot.activity == .stationary && $0.slot.location.map { $0.distance(to: person.person[.lunch]) < 150 } == true }
        try #require(lunches.count >= 3)
        let corrected = LabelledSlot(lunches[0], category: .work)
        let memory = CorrectionMemory(corrections: [corrected])
        for lunch in lunches.dropFirst() {
            #expect(memory.category(for: lunch, guess: corrected.guessed, timeZone: zone)?.category == .work)
        }
        let evenings = spans.filter { $0.slot.activity == .stationary && person.category(from: $0.start, to: $0.end) == .leisure }
        #expect(evenings.allSatisfy { memory.category(for: $0, guess: corrected.guessed, timeZone: zone) == nil })
        // A correction of what was guessed food applies to the same kind guessed food, not to one guessed otherwise.
        var guessedFood = corrected
        guessedFood.guessed = .food
        let picky = CorrectionMemory(corrections: [guessedFood])
        #expect(picky.category(for: lunches[1], guess: .food, timeZone: zone)?.category == .work)
        #expect(picky.category(for: lunches[1], guess: .leisure, timeZone: zone) == nil)
    }

    @Test("a rest is a night, or a long stillness by day: a long still evening at home is free time")
    func restsAndEvenings() throws {
        let utcZone = TimeZone(identifier: "UTC")!
        let home = GeoPoint(lat: 52.52, lon: 13.405), work = GeoPoint(lat: 52.545, lon: 13.36)
        func day(_ pieces: [(MotionActivity, GeoPoint?, Double, Bool)]) throws -> [TimelineCategory] {
            var time = utc("2026-11-18 00:00:00")
            let slots = pieces.map { activity, place, minutes, walkedOff in
                defer { time += Int64(minutes * 60_000) }
                var slot = TimeSlot(start: time, activity: activity, location: place)
                if walkedOff { slot.endsMoving = true }
                return slot
            }
            let state = TimelineState(slots: slots, generatedUntil: time)
            return try SlotClassifier.train(examples: [], timeZone: utcZone).label(state, timeZone: utcZone).slots.map(\.category)
        }
        // Change-only motion: the night and the evening are one still event each.
        let office = try day([
            (.stationary, home, 450, true), (.automotive, nil, 30, false), (.stationary, work, 240, true), (.stationary, work, 280, true),
            (.automotive, nil, 35, false), (.stationary, home, 200, false),
        ])
        #expect(office.first == .sleep && office[2] == .work && office.last == .leisure)
        // A night worker home at 07:30, resting until 14:30 with a walk at 11:00, back at work at 21:30.
        let nights = try day([
            (.stationary, work, 390, true), (.automotive, nil, 30, false), (.stationary, home, 20, true), (.stationary, home, 190, true),
            (.stationary, home, 210, true), (.stationary, home, 380, true), (.automotive, nil, 30, false), (.stationary, work, 170, false),
        ])
        #expect(nights[0] == .work && nights[2] == .food && nights[3] == .sleep && nights[4] == .sleep && nights.last == .work)
    }
}
