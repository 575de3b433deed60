import BrokerAccess
import Foundation
import GuardianShared
import GuardianTestSupport
import MQTT
import Synchronization

/// How fast trust takes effect: an enrolled account's first accepted publish and a removed one's
/// disconnection (beside a plain connect-and-publish of an existing account), and privacy receipts
/// from every service on an idle system, and from one that was down once it is back.
struct TrustBenchmark {
    let executables: URL
    var rounds = 20

    func run() async throws {
        try await enrolment()
        try await privacy()
    }

    private static func milliseconds(_ duration: Duration) -> Double { duration.seconds * 1000 }

    private static func publishOnce(_ broker: TestBroker, _ id: String, password: String) async throws -> MQTTClient {
        var configuration = MQTTConfiguration(host: "127.0.0.1", port: broker.port, username: id, password: password, clientId: "\(id)-bench", cleanStart: true)
        configuration.sessionExpirySeconds = 0
        let client = try MQTTClient(configuration: configuration, logger: .quiet)
        try await client.connect(timeout: .seconds(30))
        try await client.publish("guardian/devices/\(id)/location", payload: Data(#"{"ts":1795000000,"lat":1,"lon":1}"#.utf8))
        return client
    }

    func enrolment() async throws {
        print("== enrolment (\(rounds) devices added and removed at run time, real broker) ==")
        let broker = try TestBroker(access: .secured, autosaveInterval: 10)
        defer { broker.stop() }
        let admin = try await broker.connectedClient("admin")
        let enrolment = try await Enrolment(client: admin)
        var baseline: [Double] = [], added: [Double] = [], cutOff: [Double] = []
        for round in 0..<rounds {
            let start = ContinuousClock.now
            let existing = try await Self.publishOnce(broker, "phone-alice", password: broker.password(for: "phone-alice") ?? "")
            baseline.append(Self.milliseconds(ContinuousClock.now - start))
            await existing.shutdown()

            let addStart = ContinuousClock.now
            let account = try await enrolment.add("bench-phone-\(round)", role: .device)
            let device = try await Self.publishOnce(broker, account.id, password: account.password)
            added.append(Self.milliseconds(ContinuousClock.now - addStart))

            let removeStart = ContinuousClock.now
            try await enrolment.remove(account.id)
            let deadline = removeStart + .seconds(30)
            while device.isConnected && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(1)) }
            cutOff.append(device.isConnected ? .infinity : Self.milliseconds(ContinuousClock.now - removeStart))
            await device.shutdown(flushTimeout: .zero)
        }
        await admin.shutdown()
        let (b, a, c) = (Percentiles(baseline), Percentiles(added), Percentiles(cutOff))
        print(String(format: "existing account: connect + first publish  p50 %.1f ms, max %.1f ms   (baseline)", b.at(0.5), b.sorted.last ?? .nan))
        print(String(format: "enrolled account: add + connect + first publish  p50 %.1f ms, max %.1f ms (%.1fx baseline)   goal < 1 s  %@",
                     a.at(0.5), a.sorted.last ?? .nan, a.at(0.5) / b.at(0.5), (a.sorted.last ?? .infinity) < 1000 ? "met" : "NOT MET"))
        print(String(format: "removed account: remove → disconnected  p50 %.1f ms, max %.1f ms   goal < 1 s  %@",
                     c.at(0.5), c.sorted.last ?? .nan, (c.sorted.last ?? .infinity) < 1000 ? "met" : "NOT MET"))
    }

    func privacy() async throws {
        let services = ["ingest", "geofence", "timeline", "predictor", "command-router", "notifier"]
        print("== privacy receipts (every service as a process, idle, \(rounds / 2) forget requests) ==")
        let environment = try BenchEnvironment(executables: executables)
        defer { environment.stop() }
        for service in services { try await environment.start(service) }
        let client = try await environment.broker.connectedClient("bench-privacy")
        let receipts = Mutex<[String: [String: ContinuousClock.Instant]]>([:])
        try await client.subscribe("guardian/privacy/receipts/admin/+/+/+") { message in
            let levels = message.topic.split(separator: "/")
            guard levels.count == 7 else { return }
            let now = ContinuousClock.now
            receipts.withLock { $0[String(levels[4]), default: [:]][String(levels[5])] = now }
        }
        func forget(_ requestId: String, device: String) async throws -> ContinuousClock.Instant {
            let sent = ContinuousClock.now
            try await client.publish(
                "guardian/privacy/requests/admin", payload: GuardianJSON.encode(PrivacyRequest(id: requestId, action: .forget, deviceId: device)))
            return sent
        }
        func waitForAll(_ requestId: String, from: Set<String>) async -> Bool {
            let deadline = ContinuousClock.now + .seconds(60)
            while ContinuousClock.now < deadline {
                if Set(receipts.withLock { $0[requestId]?.keys.map { $0 } ?? [] }).isSuperset(of: from) { return true }
                try? await Task.sleep(for: .milliseconds(1))
            }
            return false
        }
        var slowest: [Double] = []
        for round in 0..<max(1, rounds / 2) {
            let device = "bench-kid-\(round)"
            try await client.publish("guardian/devices/\(device)/location", payload: Data(#"{"ts":1795000000,"lat":48.85,"lon":2.35}"#.utf8))
            let id = "bench-forget-\(round)"
            let sent = try await forget(id, device: device)
            guard await waitForAll(id, from: Set(services)) else { throw BenchmarkError.notReady("privacy receipts for \(id)") }
            let times = receipts.withLock { $0[id]!.values.map { Self.milliseconds($0 - sent) } }
            slowest.append(times.max() ?? .nan)
        }
        let p = Percentiles(slowest)
        print(String(format: "all six receipts after a forget: p50 %.1f ms, max %.1f ms   goal < 5 s  %@",
                     p.at(0.5), p.sorted.last ?? .nan, (p.sorted.last ?? .infinity) < 5000 ? "met" : "NOT MET"))

        // A service down at the request answers once it is back.
        environment.processes["notifier"]?.kill()
        let id = "bench-forget-down"
        _ = try await forget(id, device: "bench-kid-down")
        guard await waitForAll(id, from: Set(services).subtracting(["notifier"])) else { throw BenchmarkError.notReady("receipts while notifier is down") }
        let restarted = ContinuousClock.now
        try await environment.start("notifier")
        guard await waitForAll(id, from: ["notifier"]) else { throw BenchmarkError.notReady("the restarted notifier's receipt") }
        let answered = receipts.withLock { $0[id]!["notifier"]! }
        print(String(format: "a service down at the request: receipt %.1f ms after its process started again   goal < 5 s  %@",
                     Self.milliseconds(answered - restarted), (answered - restarted) < .seconds(5) ? "met" : "NOT MET"))
        await client.shutdown()
    }
}
