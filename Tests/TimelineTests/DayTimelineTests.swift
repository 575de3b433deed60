import Foundation
@testable import GuardianTimeline
import Testing

@Suite("local days")
struct DayTimelineTests {
    let berlin = TimeZone(identifier: "Europe/Berlin")!
    let home = GeoPoint(lat: 52.52, lon: 13.405)

    func night(_ evening: String, _ morning: String, _ bedtime: String, until: String) -> TimelineState {
        TimelineState(slots: [
            TimeSlot(start: utc(evening), category: .sleep, confidence: 0.9, activity: .stationary, location: home),
            TimeSlot(start: utc(morning), category: .food, confidence: 0.7, activity: .stationary, location: home),
            TimeSlot(start: utc(morning) + 30 * minute, category: .leisure, confidence: 0.6, activity: .walking, location: nil, edited: true),
            TimeSlot(start: utc(bedtime), category: .sleep, confidence: 0.9, activity: .stationary, location: home),
        ], generatedUntil: utc(until))
    }

    @Test("a slot across midnight appears in both days, clipped; the days tile the timeline")
    func midnight() {
        let state = night("2026-06-09 21:10:00", "2026-06-10 05:30:00", "2026-06-10 21:00:00", until: "2026-06-11 05:00:00")
        let days = DayTimeline.days(of: state, timeZone: berlin)
        #expect(days.map(\.date) == ["2026-06-09", "2026-06-10", "2026-06-11"])
        #expect(days[0].slots.map(\.start) == [utc("2026-06-09 21:10:00")])
        #expect(days[0].slots.map(\.end) == [utc("2026-06-09 22:00:00")])
        #expect(days[1].slots.first?.start == utc("2026-06-09 22:00:00"))
        #expect(days[1].slots.first?.end == utc("2026-06-10 05:30:00"))
        #expect(days[1].slots.last?.end == utc("2026-06-10 22:00:00"))
        #expect(days[1].slots.map(\.category) == [.sleep, .food, .leisure, .sleep])
        #expect(days[2].slots.map(\.end) == [utc("2026-06-11 05:00:00")])
        for day in days.dropFirst().dropLast() {
            #expect(day.slots.reduce(0) { $0 + $1.end - $1.start } == 24 * 60 * minute)
        }
        #expect(DayTimeline.days(of: state, timeZone: berlin, from: utc("2026-06-10 12:00:00")).map(\.date) == ["2026-06-10", "2026-06-11"])
        #expect(DayTimeline.dates(from: utc("2026-06-09 21:59:59"), to: utc("2026-06-09 22:00:01"), timeZone: berlin) == ["2026-06-09", "2026-06-10"])
    }

    @Test("spring forward: Europe/Berlin 2026-03-29 lasts 23 hours")
    func springForward() throws {
        let state = night("2026-03-28 22:10:00", "2026-03-29 05:30:00", "2026-03-29 21:00:00", until: "2026-03-30 05:00:00")
        let day = try #require(DayTimeline(date: "2026-03-29", spans: state.spans, timeZone: berlin))
        #expect(day.dayStart == utc("2026-03-28 23:00:00"))
        #expect(day.dayEnd == utc("2026-03-29 22:00:00"))
        #expect(day.slots.reduce(0) { $0 + $1.end - $1.start } == 23 * 60 * minute)
        #expect(day.slots.first?.start == utc("2026-03-28 23:00:00"))
        let svg = TimelineSVG().render(day)
        // 05:30Z is 07:30 in summer time; the day still ends at 24:00.
        #expect(svg.contains("00:00–07:30 sleep"))
        #expect(svg.contains("23:00–24:00 sleep"))
    }

    @Test("fall back: Europe/Berlin 2026-10-25 lasts 25 hours")
    func fallBack() throws {
        let state = night("2026-10-24 21:10:00", "2026-10-25 06:30:00", "2026-10-25 22:00:00", until: "2026-10-26 06:00:00")
        let days = DayTimeline.days(of: state, timeZone: berlin)
        #expect(days.map(\.date) == ["2026-10-24", "2026-10-25", "2026-10-26"])
        let day = days[1]
        #expect(day.dayStart == utc("2026-10-24 22:00:00"))
        #expect(day.dayEnd == utc("2026-10-25 23:00:00"))
        #expect(day.slots.reduce(0) { $0 + $1.end - $1.start } == 25 * 60 * minute)
        #expect(day.slots.last?.start == utc("2026-10-25 22:00:00"))
        #expect(TimelineSVG().render(day).contains("07:30–08:00 food"))
    }

    @Test("published JSON: date, timezone and slots with start, end, category, confidence, activity, location?, edited")
    func json() throws {
        let state = night("2026-06-09 21:10:00", "2026-06-10 05:30:00", "2026-06-10 21:00:00", until: "2026-06-11 05:00:00")
        let day = try #require(DayTimeline(date: "2026-06-10", spans: state.spans, timeZone: berlin))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let object = try #require(JSONSerialization.jsonObject(with: encoder.encode(day)) as? [String: Any])
        #expect(Set(object.keys) == ["date", "timezone", "slots"])
        let slots = try #require(object["slots"] as? [[String: Any]])
        #expect(Set(slots[0].keys) == ["start", "end", "category", "confidence", "activity", "location", "edited"])
        #expect(slots[0]["location"] as? [String: Double] == ["lat": 52.52, "lon": 13.405])
        #expect(slots[2]["location"] == nil && slots[2]["edited"] as? Bool == true)
        #expect(try JSONDecoder().decode(DayTimeline.self, from: encoder.encode(day)) == day)
        #expect(DayTimeline(date: "2026-02-30", spans: state.spans, timeZone: berlin) == nil)
    }
}
