import Foundation
import GuardianShared
import GuardianTestSupport
@testable import GuardianTimeline
import MQTT
import Testing

/// A real broker, the timeline service in-process, and an admin client playing ingest and the app.
final class TimelineHarness: @unchecked Sendable {
    let broker = try! TestBroker()
    let data = try! TemporaryDirectory()
    let admin: MQTTClient
    let days: MessageCollector
    let errors: MessageCollector
    var service: TimelineService?
    var task: Task<Void, any Error>?

    init() async throws {
        admin = try await broker.connectedClient("admin")
        days = try await MessageCollector(admin, "guardian/timeline/+/days/+")
        errors = try await MessageCollector(admin, "guardian/errors/timeline")
    }

    func start() async throws {
        let config = try broker.serviceConfig(service: "timeline", dataDirectory: data.url, extra: ["GUARDIAN_TIMELINE_RETRAIN_DELAY_MS": "100"])
        let service = try TimelineService(config: config, logger: .quiet)
        self.service = service
        task = try await startInProcess(service, name: "timeline", observer: admin)
    }

    func stop() async {
        await stopInProcess(task)
        task = nil
        service = nil
    }

    func shutdown() async {
        await stop()
        await admin.shutdown()
        broker.stop()
    }

    /// Publishes the sample day's events as ingest would, and the device's profile.
    func publishDay(_ device: String, lines: ArraySlice<String>) async throws {
        try await SampleDay.publishEvents(lines, device: device, with: admin)
    }

    func profile(_ device: String, timezone: String) async throws {
        let ts = Timestamp(rfc3339: "2026-11-01T00:00:00Z")!
        try await admin.publish(
            "guardian/events/\(device)/profile",
            payload: GuardianJSON.encode(DeviceEvent(id: "p", deviceId: device, ts: ts, receivedAt: ts, body: DeviceProfile(timezone: timezone, role: .adult))),
            retain: true)
    }

    func send(_ topic: String, _ json: String) async throws { try await admin.publish(topic, payload: Data(json.utf8)) }

    /// The latest published version of each day.
    var published: [String: PublishedDay] {
        var latest: [String: PublishedDay] = [:]
        for message in days.all { if let day = try? JSONDecoder().decode(PublishedDay.self, from: message.payload) { latest[day.date] = day } }
        return latest
    }

    static let sampleDay = SampleDay.lines
}

@Suite("timeline over a real mosquitto")
struct TimelineServiceTests {
    @Test("a generated day is published in the device's time zone with sensible categories")
    func generateDay() async throws {
        let h = try await TimelineHarness()
        try await h.start()
        try await h.profile("phone-1", timezone: "Europe/Paris")
        try await h.publishDay("phone-1", lines: TimelineHarness.sampleDay[...])
        try await h.send("guardian/timeline/phone-1/generate", "{}")
        await h.days.wait(for: 1)
        let day = try #require(h.published["2026-11-18"])
        #expect(day.deviceId == "phone-1" && day.timezone == "Europe/Paris")
        let categories = day.slots.map(\.category)
        #expect(categories.first == .sleep)
        #expect(categories.contains(.work) && categories.contains(.commute))
        #expect(zip(day.slots, day.slots.dropFirst()).allSatisfy { $0.end == $1.start })
        #expect(day.slots.allSatisfy { !$0.edited && ($0.category == .unknown || $0.confidence >= 0.5) })
        await h.shutdown()
    }

    @Test("incremental generation extends the day and equals a full rebuild; state survives a restart")
    func incremental() async throws {
        let h = try await TimelineHarness()
        try await h.start()
        try await h.profile("inc", timezone: "Europe/Paris")
        let lines = TimelineHarness.sampleDay
        let half = lines.count / 2
        try await h.publishDay("inc", lines: lines[..<half])
        try await h.send("guardian/timeline/inc/generate", "{}")
        await h.days.wait(for: 1)
        let first = try #require(h.published["2026-11-18"])
        await h.stop()
        try await h.start()
        try await h.publishDay("inc", lines: lines[half...])
        h.days.clear()
        try await h.send("guardian/timeline/inc/generate", "{}")
        await h.days.wait(for: 1)
        let second = try #require(h.published["2026-11-18"])
        #expect(second.slots.count > first.slots.count)
        #expect(second.slots.last!.end > first.slots.last!.end)
        let reading = OfflineTimeline.read(jsonLines: Data(lines.joined(separator: "\n").utf8))
        let (motion, locations) = (reading.motion, reading.locations)
        let paris = TimeZone(identifier: "Europe/Paris")!
        let rebuilt = TimelineGenerator(timeZone: paris).rebuild(motion: motion, locations: locations, until: second.slots.last!.end.milliseconds)
        // The published slots are the rebuild's slots (cut in the device's time zone too: where a
        // still night may end), neighbours of one category merged.
        let expected = try #require(DayTimeline(date: "2026-11-18", spans: rebuilt.state.spans, timeZone: paris))
        #expect(second.slots.first?.start.milliseconds == expected.slots.first?.start)
        #expect(second.slots.last?.end.milliseconds == expected.slots.last?.end)
        #expect(Set(second.slots.map(\.start.milliseconds)).isSubset(of: expected.slots.map(\.start)))
        #expect(zip(second.slots, second.slots.dropFirst()).allSatisfy { $0.end == $1.start && $0.category != $1.category })
        await h.shutdown()
    }

    @Test("a correction is kept as edited, republished, and retrains the model")
    func feedback() async throws {
        let h = try await TimelineHarness()
        try await h.start()
        try await h.profile("fb", timezone: "Europe/Paris")
        try await h.publishDay("fb", lines: TimelineHarness.sampleDay[...])
        try await h.send("guardian/timeline/fb/generate", "{}")
        await h.days.wait(for: 1)
        let day = try #require(h.published["2026-11-18"])
        let target = try #require(day.slots.first { $0.activity == .running })
        h.days.clear()
        let inside = target.start.adding(seconds: 60).rfc3339
        try await h.send("guardian/timeline/fb/feedback", #"{"start": "\#(inside)", "category": "family"}"#)
        await h.days.wait(for: 1)
        let corrected = try #require(h.published["2026-11-18"]?.slots.first { $0.start == target.start })
        #expect(corrected.category == .family && corrected.edited && corrected.confidence == 1)
        let vote = try #require(day.slots.first { $0.category == .work })
        try await h.send("guardian/timeline/fb/feedback", #"{"start": "\#(vote.start.rfc3339)", "vote": "correct"}"#)
        // Under load the first correction's retrain may run before the vote arrives (a second one follows).
        func settled() -> Bool { (h.service?.counters["retrains"] ?? 0) >= 1 && h.service?.counters["feedback"] == 2 }
        #expect(await eventually { settled() })
        #expect(h.published["2026-11-18"]?.slots.first { $0.start == target.start }?.category == .family)
        await h.shutdown()
    }

    @Test("the phone's state events say when it charges: kept per device, those saying nothing of the charger ignored")
    func charging() async throws {
        let h = try await TimelineHarness()
        try await h.start()
        for (index, (time, battery)) in [("22:58", DeviceState.BatteryState.charging), ("23:30", .unknown), ("02:00", .full), ("06:50", .unplugged)].enumerated() {
            let ts = Timestamp(rfc3339: "2026-11-\(index < 2 ? 18 : 19)T\(time):00Z")!
            let event = DeviceEvent(id: "s\(index)", deviceId: "charger", ts: ts, receivedAt: ts, body: DeviceState(batteryLevel: 0.5, batteryState: battery))
            try await h.admin.publish("guardian/events/charger/state", payload: GuardianJSON.encode(event))
        }
        try await h.admin.publish(
            "guardian/events/charger/state", payload: GuardianJSON.encode(DeviceEvent(
                id: "s4", deviceId: "charger", ts: Timestamp(rfc3339: "2026-11-19T07:00:00Z")!, receivedAt: Timestamp(rfc3339: "2026-11-19T07:00:00Z")!,
                body: DeviceState(network: .wifi))))
        let charges = { (try? h.service?.store.charges("charger", until: .max)) ?? [] }
        #expect(await eventually { charges().count == 3 })
        #expect(charges().map(\.charging) == [true, true, false])
        // The first report is the charger plugged in then: phones report the battery's state when it changes.
        #expect(charges().changes == [utc("2026-11-18 22:58:00"), utc("2026-11-19 06:50:00")])
        await h.shutdown()
    }

    @Test("bad events and requests are reported, not fatal")
    func badInput() async throws {
        let h = try await TimelineHarness()
        try await h.start()
        try await h.send("guardian/events/x/motion", #"{"activity": "levitating"}"#)
        try await h.send("guardian/timeline/x/feedback", #"{"start": "2026-11-18T10:00:00Z"}"#)
        try await h.send("guardian/timeline/x/feedback", #"{"start": "2026-11-18T10:00:00Z", "category": "napping"}"#)
        try await h.send("guardian/timeline/x/feedback", #"{"start": "2026-11-18T10:00:00Z", "category": "work"}"#)
        try await h.send("guardian/timeline/x/generate", "[1, 2]")
        try await h.profile("ok", timezone: "UTC")
        try await h.publishDay("ok", lines: TimelineHarness.sampleDay.prefix(6))
        try await h.send("guardian/timeline/ok/generate", "{}")
        await h.days.wait(for: 1)
        #expect(h.published["2026-11-18"] != nil || h.published["2026-11-17"] != nil)
        #expect(await h.errors.wait(for: 5).count == 5)
        await h.shutdown()
    }
}
