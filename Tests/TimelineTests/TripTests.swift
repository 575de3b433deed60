import Foundation
@testable import GuardianTimeline
import Testing

@Suite("trips")
struct TripTests {
    @Test("a short walk or stop between two drives belongs to the trip: one commute slot")
    func shortPartsOfATrip() throws {
        let zone = TimeZone(identifier: "UTC")!
        let start = utc("2026-11-17 07:00:00")
        let home = GeoPoint(lat: 52.52, lon: 13.405), office = GeoPoint(lat: 52.545, lon: 13.36)
        let station = GeoPoint(lat: 52.53, lon: 13.39)
        var time = start
        let pieces: [(MotionActivity, GeoPoint?, Double)] = [
            (.stationary, home, 60), (.automotive, home, 12), (.stationary, station, 7), (.automotive, station, 10),
            (.walking, nil, 6), (.automotive, nil, 8), (.stationary, office, 240),
        ]
        let slots = pieces.map { activity, place, minutes in
            defer { time += Int64(minutes * 60_000) }
            return TimeSlot(start: time, activity: activity, location: place)
        }
        let state = TimelineState(slots: slots, generatedUntil: time)
        let labelled = try SlotClassifier.train(examples: [], timeZone: zone).label(state, timeZone: zone)
        #expect(labelled.slots[1...5].allSatisfy { $0.category == .commute })
        let day = try #require(DayTimeline.days(of: labelled, timeZone: zone).first)
        let trip = try #require(day.slots.first { $0.category == .commute })
        #expect(trip.start == slots[1].start && trip.end == slots[6].start && trip.activity == .automotive)
        #expect(day.slots.filter { $0.category == .commute }.count == 1)
    }

    @Test("twenty minutes at a school gate, driven to and driven on, is waiting on the way: one commute slot; an hour there is a stay of its own")
    func waitingAtTheGate() throws {
        let zone = TimeZone(identifier: "UTC")!
        let home = GeoPoint(lat: 52.52, lon: 13.405), office = GeoPoint(lat: 52.545, lon: 13.36)
        let school = GeoPoint(lat: 52.53, lon: 13.39)
        func afternoon(waiting minutes: Double) throws -> [DayTimeline.Slot] {
            var time = utc("2026-11-17 08:00:00")
            let pieces: [(MotionActivity, GeoPoint, Double)] = [
                (.stationary, office, 360), (.automotive, office, 20), (.stationary, school, minutes), (.automotive, school, 8),
                (.stationary, home, 240),
            ]
            let slots = pieces.map { activity, place, minutes in
                defer { time += Int64(minutes * 60_000) }
                return TimeSlot(start: time, activity: activity, location: place)
            }
            let state = TimelineState(slots: slots, generatedUntil: time)
            let labelled = try SlotClassifier.train(examples: [], timeZone: zone).label(state, timeZone: zone)
            return try #require(DayTimeline.days(of: labelled, timeZone: zone).first).slots
        }
        let waited = try afternoon(waiting: 20)
        #expect(waited.filter { $0.category == .commute }.count == 1)
        let trip = try #require(waited.first { $0.category == .commute })
        #expect(trip.start == utc("2026-11-17 14:00:00") && trip.end == utc("2026-11-17 14:48:00"))

        let stayed = try afternoon(waiting: 60)
        #expect(stayed.filter { $0.category == .commute }.count == 2)
        #expect(stayed.contains { $0.start == utc("2026-11-17 14:20:00") && $0.category != .commute })
    }

    @Test("a short walk after a run is part of the run")
    func coolingDown() throws {
        let zone = TimeZone(identifier: "UTC")!
        let home = GeoPoint(lat: 52.52, lon: 13.405)
        var time = utc("2026-11-17 18:00:00")
        let pieces: [(MotionActivity, Double)] = [(.stationary, 50), (.running, 40), (.walking, 10), (.stationary, 120)]
        let slots = pieces.map { activity, minutes in
            defer { time += Int64(minutes * 60_000) }
            return TimeSlot(start: time, activity: activity, location: activity == .stationary ? home : nil)
        }
        let labelled = try SlotClassifier.train(examples: [], timeZone: zone).label(TimelineState(slots: slots, generatedUntil: time), timeZone: zone)
        #expect(labelled.slots[1].category == .exercise && labelled.slots[2].category == .exercise)
        let day = try #require(DayTimeline.days(of: labelled, timeZone: zone).first)
        #expect(day.slots.filter { $0.category == .exercise }.map(\.end) == [slots[3].start])
    }
}
