import Foundation
import GuardianShared
import GuardianTestSupport
import MQTT
import Testing

/// The broker itself stopped and started again (same port, same persistence) while services run.
@Suite("broker restart")
struct BrokerRestartTests {
    /// Phones walk into their own danger zone and linger: ingest → geofence (enter, dwell) →
    /// predictor → notifier, every service its own process. Each user asked for every prediction
    /// (threshold 0) and there is no cool-down, so each enter and each dwell is one notification.
    ///
    /// The broker stops once the first half has gone through, not while messages are in flight:
    /// mosquitto 2.0.11 does not queue messages for a shared subscription (`$share/…`) restored
    /// from its persistence file until that subscriber has reconnected and subscribed again, so a
    /// message in flight to a shared subscriber (every stateless service) when the broker stops can be
    /// lost when the service that re-sends it reconnects first. Guardian cannot prevent that; this test
    /// checks what Guardian does: every service notices the broker went away, reconnects by itself,
    /// resumes its session and subscriptions, and the rest of the stream goes through, once.
    @Test("broker restarted between two halves of a stream: every service reconnects by itself and every notification arrives once")
    func brokerRestart() async throws {
        let services = ["ingest", "geofence", "predictor", "notifier"]
        try #require(FaultHarness.built("ingest", "geofence", "predictor", "notifier"))
        let broker = try TestBroker()
        let data = try TemporaryDirectory()
        // The test's own clients keep persistent sessions too, like the services.
        let observer = try await broker.connectedClient("observer", cleanStart: false)
        let devices = 6, visits = 20
        let start = 1_795_000_000
        for d in 0..<devices {
            let zone = DangerZone(name: "Shop \(d)", lat: 10 + Double(d) * 0.1, lon: 10, radius: 100, merchant: "Shop \(d)", regretRate: 0.9)
            try await observer.publish("guardian/zones/zone-\(d)", payload: GuardianJSON.encode(zone), retain: true)
            try await observer.publish("guardian/users/dev-\(d)/preferences", payload: Data(#"{"nudgeThreshold": 0}"#.utf8), retain: true)
        }
        let notifications = try await Tally(observer, "guardian/notifications/+") { topic, object in
            (object["id"] as? String).map { "\(topic.split(separator: "/").last!)/\($0)" }
        }
        let geofenceEvents = try await Tally(observer, "guardian/geofence/+")
        let presence = try await MessageCollector(observer, "guardian/services/+/kill")
        var processes: [ServiceProcess] = []
        defer { processes.forEach { $0.kill(signal: SIGKILL) } }
        for service in services {
            processes.append(
                try await FaultHarness.start(
                    service, broker: broker, data: data.url, observer: observer, environment: ["GUARDIAN_NOTIFIER_ZONE_COOLDOWN_MINUTES": "0"]))
        }
        let phones = try await broker.connectedClient("phones", cleanStart: false)

        /// Each visit: a fix inside (enter), one 6 minutes later (dwell), one outside (exit).
        func visitsStream(_ range: Range<Int>) -> (stream: [MQTTOutgoing], expected: Set<String>) {
            var stream: [MQTTOutgoing] = [], expected: Set<String> = []
            for v in range {
                for (step, type) in [(0, GeofenceEvent.Kind.enter), (360, .dwell), (420, .exit)] {
                    for d in 0..<devices {
                        let ts = start + v * 600 + step, lat = 10 + Double(d) * 0.1 + (type == .exit ? 0.01 : 0)
                        let fix = #"{"id": "f-\#(d)-\#(v)-\#(step)", "ts": \#(ts), "lat": \#(lat), "lon": 10, "acc": 10}"#
                        stream.append(MQTTOutgoing(topic: "guardian/devices/dev-\(d)/location", payload: Data(fix.utf8)))
                        guard type != .exit else { continue }
                        let id = GeofenceEvent.makeId(
                            deviceId: "dev-\(d)", zoneId: "zone-\(d)", type: type, ts: Timestamp(milliseconds: Int64(ts) * 1000), source: .server)
                        expected.insert("dev-\(d)/nudge-\(id)")
                    }
                }
            }
            return (stream, expected)
        }
        let first = visitsStream(0..<visits / 2), second = visitsStream(visits / 2..<visits)
        let expected = first.expected.union(second.expected)

        // The first half goes through; then the broker stops (SIGTERM: it saves sessions, subscriptions
        // and retained messages) and starts again on the same port and persistence directory.
        try await StreamSender(first.stream, with: phones, perSecond: 1000).finish()
        try #require(await FaultHarness.waitUntil(timeout: .seconds(180)) { notifications.distinct >= first.expected.count })
        // Nothing in flight when it stops: geofence has taken every fix (its exits came out too), and
        // the broker has read the observer's acknowledgements (it answers this publish after them).
        let firstHalfVisits = devices * (visits / 2) * 3
        try #require(await FaultHarness.waitUntil(timeout: .seconds(180)) { geofenceEvents.distinct >= firstHalfVisits })
        try await observer.publish("guardian/test/barrier", payload: Data("after the first half".utf8))
        broker.stop()
        try await Task.sleep(for: .milliseconds(500))
        presence.clear()
        try broker.start()

        // Every service announces itself online again over a new connection, by itself.
        let back = {
            Set(
                presence.all.compactMap { message -> String? in
                    guard let p = try? JSONDecoder().decode(Presence.self, from: message.payload), p.status == .online,
                        (p.stats["mqttConnects"] ?? 0) >= 2
                    else { return nil }
                    return String(message.topic.split(separator: "/")[2])
                })
        }
        let reconnected = await FaultHarness.waitUntil(timeout: .seconds(120)) { back() == Set(services) }
        #expect(reconnected, "back online over a new connection: \(back().sorted()) of \(services)")

        // The second half, through the restarted broker.
        try await StreamSender(second.stream, with: phones, perSecond: 1000).finish()
        await FaultHarness.waitUntil(timeout: .seconds(180), every: .milliseconds(50)) { notifications.distinct >= expected.count }
        _ = await FaultHarness.waitUntil(timeout: .milliseconds(500)) { false }  // anything extra would arrive now

        let missing = expected.subtracting(notifications.keys), extra = notifications.keys.subtracting(expected)
        #expect(missing.count == 0, "\(missing.count) of \(expected.count) notifications lost, e.g. \(missing.sorted().prefix(3))")
        #expect(extra.count == 0, "\(extra.count) unexpected notifications, e.g. \(extra.sorted().prefix(3))")
        #expect(notifications.doubled.count == 0, "\(notifications.doubled.count) notifications delivered twice, e.g. \(notifications.doubled.prefix(3))")

        for process in processes { process.kill() }
        await phones.shutdown()
        await observer.shutdown()
        broker.stop()
    }

    @Test(
        "a service whose broker never answered stops on SIGTERM, promptly and cleanly",
        arguments: ["ingest", "geofence", "predictor", "notifier", "timeline", "command-router"])
    func stopsWithoutBroker(service: String) async throws {
        try #require(FaultHarness.built(service))
        let data = try TemporaryDirectory()
        let nobody = try ReservedPort()  // nothing listens there, and nothing else can while the test runs
        let process = try ServiceProcess(
            executable: FaultHarness.executables.appendingPathComponent(service),
            environment: [
                "GUARDIAN_MQTT_URL": "mqtt://127.0.0.1:\(nobody.port)", "GUARDIAN_DATA_DIR": data.url.path, "GUARDIAN_LOG_LEVEL": "warning",
                "GUARDIAN_MODELS_DIR": TestBroker.repositoryRoot.appendingPathComponent("Models").path,
            ],
            logFile: data.url.appendingPathComponent("\(service).log"))
        let log = data.url.appendingPathComponent("\(service).log")
        // Running and retrying: it says it cannot reach the broker.
        let retrying = await FaultHarness.waitUntil(timeout: .seconds(120)) {
            ((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains("cannot reach MQTT broker")
        }
        #expect(retrying, "it says it cannot reach the broker")
        #expect(await process.waitForExit(timeout: .milliseconds(100)) == nil, "still running while the broker is away")
        // SIGTERM stops it by itself (exit 0); the ceiling only bounds a service that would hang.
        kill(process.pid, SIGTERM)
        let status = await process.waitForExit(timeout: .seconds(120))
        #expect(status == 0, "\(String(describing: status)): \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
        withExtendedLifetime(nobody) {}
    }
}
