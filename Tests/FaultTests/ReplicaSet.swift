import Foundation
import GuardianShared
import GuardianTestSupport
import MQTT
import Synchronization
import Testing

/// Replicas of one service as their own processes on one broker, each with its own instance id and
/// data directory (as `docker compose up --scale` runs them), and what their presence says.
final class ReplicaSet: @unchecked Sendable {
    let service: String
    let broker: TestBroker
    let observer: MQTTClient
    private let presence: MessageCollector
    private let environment: [String: String]
    private let lock = NSLock()
    private var processes: [String: ServiceProcess] = [:]
    private var directories: [String: TemporaryDirectory] = [:]

    /// `GUARDIAN_HANDOVER_GRACE` is 2 s here, so a handover starts soon after a replica leaves.
    init(_ service: String, broker: TestBroker, observer: MQTTClient, environment: [String: String] = [:]) async throws {
        self.service = service
        self.broker = broker
        self.observer = observer
        self.environment = ["GUARDIAN_HANDOVER_GRACE": "2"].merging(environment) { $1 }
        presence = try await MessageCollector(observer, "guardian/services/\(service)/+")
    }

    /// Starts `instance` (again with its data directory, if it ran before) and returns once it
    /// announced itself online (live, not a retained presence).
    func start(_ instance: String) async throws {
        let data = try lock.withLock { try directories[instance] ?? TemporaryDirectory() }
        let since = presence.count
        var variables = [
            "GUARDIAN_MQTT_URL": broker.url, "GUARDIAN_DATA_DIR": data.url.path, "GUARDIAN_INSTANCE_ID": instance,
            "GUARDIAN_STATS_INTERVAL": "1", "GUARDIAN_LOG_LEVEL": "notice",
        ]
        variables.merge(environment) { $1 }
        let process = try ServiceProcess(
            executable: FaultHarness.executables.appendingPathComponent(service), environment: variables,
            logFile: data.url.appendingPathComponent("\(service).log"))
        lock.withLock {
            processes[instance] = process
            directories[instance] = data
        }
        let online = await FaultHarness.waitUntil(timeout: .seconds(120)) {
            presence.all.dropFirst(since).contains { !$0.retain && $0.topic.hasSuffix("/\(instance)") && Self.status($0) == .online }
        }
        guard online else { throw TestBrokerError.cannotStart("\(service) \(instance) did not come online: \(log(instance).suffix(1500))") }
    }

    /// Sends `signal` to `instance` and waits until it exited (on a thread of its own: the wait blocks).
    func stop(_ instance: String, signal: Int32 = SIGTERM) async throws {
        guard let process = lock.withLock({ processes[instance] }) else { return }
        try await blockingWork { process.kill(signal: signal) }
    }

    /// Stops every replica still running.
    func stopAll() async throws {
        for instance in lock.withLock({ Array(processes.keys) }) { try await stop(instance) }
    }

    /// The service's log of `instance`.
    func log(_ instance: String) -> String {
        guard let directory = lock.withLock({ directories[instance] }) else { return "" }
        return (try? String(contentsOf: directory.url.appendingPathComponent("\(service).log"), encoding: .utf8)) ?? ""
    }

    /// The latest presence of `instance`: nil when none arrived or it was cleared.
    func latest(_ instance: String) -> Presence? {
        guard let last = presence.all.last(where: { $0.topic.hasSuffix("/\(instance)") }) else { return nil }
        return try? JSONDecoder().decode(Presence.self, from: last.payload)
    }

    /// True once the retained presence of `instance` was cleared (its session handed over or left).
    func cleared(_ instance: String) -> Bool {
        presence.all.last(where: { $0.topic.hasSuffix("/\(instance)") })?.payload.isEmpty ?? false
    }

    /// Whether the broker still holds a session for `instance`: connects with its client id and
    /// `clean_start = false` (session expiry 0, so this look leaves nothing behind) and reads CONNACK.
    /// Call once the session's last connection is closed and its presence cleared.
    func sessionPresent(_ instance: String) async throws -> Bool {
        try await broker.sessionPresent(clientId: "\(service)-\(instance)")
    }

    private static func status(_ message: MQTTMessage) -> Presence.Status? {
        (try? JSONDecoder().decode(Presence.self, from: message.payload))?.status
    }
}

/// Fixes from `devices` devices, `count` in all, each with its own id (`{prefix}{n}`), in rounds over the devices.
func fixes(_ count: Int, devices: Int, prefix: String, from start: Int = 0) -> [MQTTOutgoing] {
    (start..<(start + count)).map { i in
        MQTTOutgoing(
            topic: "guardian/devices/phone-\(i % devices)/location",
            payload: Data(#"{"id": "\#(prefix)\#(i)", "ts": \#(1_795_000_000 + i), "lat": 1, "lon": 1}"#.utf8))
    }
}
