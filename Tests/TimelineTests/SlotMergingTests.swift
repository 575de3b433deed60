import Foundation
@testable import GuardianTimeline
import Testing

@Suite("slots a person would draw")
struct SlotMergingTests {
    let home = GeoPoint(lat: 52.5200, lon: 13.4050)
    let office = GeoPoint(lat: 52.5450, lon: 13.3600)
    let utcZone = TimeZone(identifier: "UTC")!

    func state(_ pieces: [(TimelineCategory, MotionActivity, GeoPoint?, Double)], from start: Int64 = utc("2026-11-16 00:00:00")) -> TimelineState {
        var time = start
        let slots = pieces.map { category, activity, place, minutes in
            defer { time += Int64(minutes * 60_000) }
            return TimeSlot(start: time, category: category, confidence: 0.8, activity: activity, location: place)
        }
        return TimelineState(slots: slots, generatedUntil: time)
    }

    @Test("two sleeps at home and two halves of a morning at the office are one slot each")
    func sameSlotsMerge() throws {
        let nearHome = GeoPoint(lat: 52.5205, lon: 13.4052)
        let day = state([
            (.sleep, .stationary, home, 200), (.sleep, .stationary, nearHome, 260),
            (.commute, .walking, home, 4), (.commute, .automotive, nil, 22), (.commute, .walking, office, 3),
            (.work, .stationary, office, 100), (.work, .stationary, office, 110), (.food, .walking, office, 5),
        ])
        let merged = day.spans.mergedGroups()
        #expect(merged.map(\.slots) == [0..<2, 2..<5, 5..<7, 7..<8])
        #expect(merged.map(\.span.slot.category) == [.sleep, .commute, .work, .food])
        #expect(merged[0].span.duration == 460 * minute && merged[0].span.slot.location == nearHome)
        #expect(merged[1].span.slot.activity == .automotive && merged[1].span.slot.location == nil)
        #expect(merged[2].span.end == day.spans[6].end)
    }

    @Test("a real change keeps slots apart: stays at two places, a gap in the data, another category")
    func realChanges() {
        let day = state([
            (.work, .stationary, office, 120), (.work, .stationary, home, 120),
            (.leisure, .stationary, home, 60), (.unknown, .unknown, nil, 600), (.leisure, .stationary, home, 60),
            (.leisure, .walking, nil, 30), (.food, .stationary, home, 40),
        ])
        #expect(day.spans.mergedGroups().map(\.slots) == [0..<1, 1..<2, 2..<3, 3..<4, 4..<6, 6..<7])
    }

    @Test("a correction-weighted merge: edited if any part is, confidence weighted by time")
    func mergedAttributes() {
        var day = state([(.leisure, .stationary, home, 30), (.leisure, .stationary, home, 90)])
        day.slots[1].confidence = 0.4
        day.slots[1].edited = true
        let span = day.spans.merged()[0]
        #expect(span.slot.edited)
        #expect(abs(span.slot.confidence - (0.8 * 30 + 0.4 * 90) / 120) < 1e-9)
    }

    @Test("days without data have no slots; the stay before a silence is not stretched over it")
    func noDataNoSlots() throws {
        let motion = [
            MotionEvent(timestamp: utc("2026-11-16 18:00:00"), activity: .stationary),
            MotionEvent(timestamp: utc("2026-11-16 22:00:00"), activity: .stationary),
            MotionEvent(timestamp: utc("2026-11-18 07:00:00"), activity: .walking),
            MotionEvent(timestamp: utc("2026-11-18 07:20:00"), activity: .stationary),
        ]
        let locations = [LocationEvent(timestamp: utc("2026-11-16 17:00:00"), location: home)]
        let until = utc("2026-11-18 12:00:00")
        let events = AnnotatedEvent.annotate(motion: motion, locations: locations, until: until)
        #expect(events.map(\.activity) == [.stationary, .stationary, .unknown, .walking, .stationary])
        #expect(events[1].end == utc("2026-11-16 22:01:00") && events[2].end == utc("2026-11-18 07:00:00"))
        let built = TimelineGenerator().rebuild(motion: motion, locations: locations, until: until).state
        let labelled = try SlotClassifier.train(examples: [], timeZone: utcZone).label(built, timeZone: utcZone)
        #expect(labelled.slots.filter(\.isGap).allSatisfy { $0.category == .unknown && $0.confidence == 0 })
        let days = DayTimeline.days(of: labelled, timeZone: utcZone)
        #expect(days.map(\.date) == ["2026-11-16", "2026-11-18"])
        #expect(days[0].slots.last?.end == utc("2026-11-16 22:01:00"))
        #expect(days[1].slots.first?.start == utc("2026-11-18 07:00:00"))
    }
}
