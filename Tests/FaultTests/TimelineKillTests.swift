import Foundation
import GuardianShared
import GuardianTestSupport
import MQTT
import Testing

extension KillTests {
    /// Days of hourly events for several devices, with a generate request after each day: every hour
    /// is a motion event (an hour's stay and an hour's drive alternating, each stay at a place more
    /// than a kilometre from the last: no segmentation pass merges or drops them) at a place of its own, so each event is exactly one slot of the
    /// published day, and a lost motion or location event shows as a missing slot or a wrong place.
    @Test("timeline killed with SIGKILL mid-stream: every event is in the published days, none lost")
    func timeline() async throws {
        try #require(FaultHarness.built("timeline"))
        let broker = try TestBroker()
        let data = try TemporaryDirectory()
        let observer = try await broker.connectedClient("observer")
        let devices = 4, days = 12
        let start: Int64 = 1_795_132_800_000  // 2026-11-18T00:00:00Z
        let hour: Int64 = 3_600_000
        let published = try await Tally(observer, "guardian/timeline/+/days/+") { topic, _ in
            let levels = topic.split(separator: "/")
            return "\(levels[2])/\(levels[4])"
        }
        var timeline = try await FaultHarness.start("timeline", broker: broker, data: data.url, observer: observer)
        let source = try await broker.connectedClient("ingest-stand-in")

        func instant(_ day: Int, _ h: Int) -> Timestamp { Timestamp(milliseconds: start + (Int64(day) * 24 + Int64(h)) * hour) }
        func place(_ day: Int, _ h: Int) -> (lat: Double, lon: Double) { (48 + Double(h) * 0.01, 2 + Double(day) * 0.01) }
        func date(_ day: Int) -> String { String(instant(day, 0).rfc3339.prefix(10)) }
        var stream: [MQTTOutgoing] = []
        for day in 0...days {
            // The day after the last holds only the event that ends the last one.
            for h in 0..<(day == days ? 1 : 24) {
                let ts = instant(day, h)
                for d in 0..<devices {
                    let (lat, lon) = place(day, h)
                    let fix = DeviceEvent(id: "l-\(day)-\(h)", deviceId: "dev-\(d)", ts: ts, receivedAt: ts, body: Location(lat: lat, lon: lon, acc: 10))
                    let motion = DeviceEvent(
                        id: "m-\(day)-\(h)", deviceId: "dev-\(d)", ts: ts, receivedAt: ts, body: Motion(activity: h % 2 == 0 ? .stationary : .automotive))
                    stream.append(MQTTOutgoing(topic: "guardian/events/dev-\(d)/location", payload: GuardianJSON.encode(fix)))
                    stream.append(MQTTOutgoing(topic: "guardian/events/dev-\(d)/motion", payload: GuardianJSON.encode(motion)))
                }
            }
            for d in 0..<devices { stream.append(MQTTOutgoing(topic: "guardian/timeline/dev-\(d)/generate", payload: Data("{}".utf8))) }
        }
        let total = devices * days
        let sender = StreamSender(stream, with: source, perSecond: 1500, holding: true)

        let kill = try await FaultHarness.killMidStream(timeline, sender: sender, outputs: published, expected: total, waitForAll: false) {
            try await FaultHarness.start("timeline", broker: broker, data: data.url, observer: observer)
        }
        timeline = kill.restarted

        // What an app reads now: the retained day of each device and date.
        func retainedDays() async throws -> [String: [String: Any]] {
            let reader = try await broker.connectedClient("app-\(UUID().uuidString.prefix(8))")
            let retained = try await MessageCollector(reader, "guardian/timeline/+/days/+")
            _ = await retained.settle(.milliseconds(300))
            await reader.shutdown()
            var latest: [String: [String: Any]] = [:]
            for message in retained.all {
                let levels = message.topic.split(separator: "/")
                latest["\(levels[2])/\(levels[4])"] = (try? JSONSerialization.jsonObject(with: message.payload)) as? [String: Any]
            }
            return latest
        }
        /// Why a published day differs from its events, if it does.
        func problem(_ day: [String: Any]?, device: String, day index: Int) -> String? {
            guard let slots = day?["slots"] as? [[String: Any]] else { return "\(device) \(date(index)): not published" }
            guard slots.count == 24 else { return "\(device) \(date(index)): \(slots.count) slots, not 24" }
            for (h, slot) in slots.enumerated() {
                let start = instant(index, h).rfc3339, end = instant(index, h + 1).rfc3339
                let location = slot["location"] as? [String: Any], (lat, lon) = place(index, h)
                guard slot["start"] as? String == start, slot["end"] as? String == end,
                    slot["activity"] as? String == (h % 2 == 0 ? "stationary" : "automotive"),
                    let la = location?["lat"] as? Double, let lo = location?["lon"] as? Double, abs(la - lat) < 1e-9, abs(lo - lon) < 1e-9
                else { return "\(device) \(date(index)) hour \(h): \(slot)" }
            }
            return nil
        }
        var problems: [String] = []
        let deadline = ContinuousClock.now + .seconds(180)
        repeat {
            try await Task.sleep(for: .milliseconds(300))
            let latest = try await retainedDays()
            problems = (0..<devices).flatMap { d in (0..<days).compactMap { problem(latest["dev-\(d)/\(date($0))"], device: "dev-\(d)", day: $0) } }
        } while !problems.isEmpty && ContinuousClock.now < deadline

        kill.at.expectMidStream(inputs: stream.count, outputs: total)
        #expect(problems.isEmpty, "\(problems.count) days differ from their events: \(problems.prefix(3))")

        timeline.kill()
        await source.shutdown()
        await observer.shutdown()
        broker.stop()
    }
}
