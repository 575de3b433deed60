import Foundation
import GuardianShared
import GuardianTestSupport
import MQTT
import Synchronization
import Testing

/// Services as their own processes, killed with SIGKILL mid-stream and restarted.
@Suite("SIGKILL mid-stream")
struct KillTests {
    static var executables: URL { URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent() }

    /// Starts `service` as a process on `broker` with a fixed instance id and data directory.
    static func start(_ service: String, broker: TestBroker, data: URL, observer: MQTTClient) async throws -> ServiceProcess {
        let presence = try await MessageCollector(observer, "guardian/services/\(service)/kill")
        presence.clear()
        let process = try ServiceProcess(
            executable: executables.appendingPathComponent(service),
            environment: [
                "GUARDIAN_MQTT_URL": broker.url, "GUARDIAN_DATA_DIR": data.path, "GUARDIAN_INSTANCE_ID": "kill", "GUARDIAN_STATS_INTERVAL": "1",
                "GUARDIAN_LOG_LEVEL": "warning",
            ],
            logFile: data.appendingPathComponent("\(service).log"))
        let deadline = ContinuousClock.now + .seconds(20)
        while !presence.all.contains(where: { !$0.retain && (try? JSONDecoder().decode(Presence.self, from: $0.payload))?.status == .online }) {
            guard ContinuousClock.now < deadline else { throw TestBrokerError.cannotStart("\(service) did not come online") }
            try await Task.sleep(for: .milliseconds(20))
        }
        return process
    }

    @Test("ingest killed with SIGKILL mid-stream loses no event; repeats keep their id")
    func ingest() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.executables.appendingPathComponent("ingest").path))
        let broker = try TestBroker()
        let data = try TemporaryDirectory()
        let observer = try await broker.connectedClient("observer")
        let ids = Mutex<[String: Int]>([:])
        try await observer.subscribe("guardian/events/+/location") { message in
            guard let id = (try? JSONSerialization.jsonObject(with: message.payload) as? [String: Any])?["id"] as? String else { return }
            ids.withLock { $0[id, default: 0] += 1 }
        }
        var ingest = try await Self.start("ingest", broker: broker, data: data.url, observer: observer)
        let phone = try await broker.connectedClient("phone")
        let total = 6000
        let sender = Task {
            for i in 0..<total {
                try await phone.publish("guardian/devices/phone/location", payload: Data(#"{"id": "k\#(i)", "ts": \#(1_795_000_000 + i), "lat": 1, "lon": 1}"#.utf8))
            }
        }
        while ids.withLock({ $0.count }) < total / 4 { try await Task.sleep(for: .milliseconds(5)) }
        ingest.kill(signal: SIGKILL)
        let seenAtKill = ids.withLock { $0.count }
        ingest = try await Self.start("ingest", broker: broker, data: data.url, observer: observer)
        try await sender.value
        let deadline = ContinuousClock.now + .seconds(60)
        while ids.withLock({ $0.count }) < total && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        let delivered = ids.withLock { $0 }
        #expect(seenAtKill < total)
        #expect(Set(delivered.keys) == Set((0..<total).map { "k\($0)" }))
        // At-least-once across a crash: a repeat carries the same id, so consumers drop it.
        let repeats = delivered.values.reduce(0) { $0 + $1 - 1 }
        #expect(repeats < 1000)
        ingest.kill()
        await phone.shutdown()
        await observer.shutdown()
        broker.stop()
    }
}
