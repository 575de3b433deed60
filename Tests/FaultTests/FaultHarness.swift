import Foundation
import GuardianShared
import GuardianTestSupport
import MQTT
import Synchronization
import Testing

/// What every fault test shares: services started as their own executables (a fixed instance id and
/// data directory, so a restart resumes the same MQTT session and store), waits, and tallies of
/// what arrived by id.
enum FaultHarness {
    /// The directory of the built executables (next to the test bundle).
    static var executables: URL { URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent() }

    /// The `guardian` CLI beside the tests, as a user runs it.
    static func guardianCLI() throws -> URL {
        let guardian = executables.appendingPathComponent("guardian")
        try #require(FileManager.default.isExecutableFile(atPath: guardian.path), "build the CLI first (swift build --build-tests)")
        return guardian
    }

    /// True when every named service was built (`swift build --build-tests` builds them all).
    static func built(_ services: String...) -> Bool {
        services.allSatisfy { FileManager.default.isExecutableFile(atPath: executables.appendingPathComponent($0).path) }
    }

    /// Starts `service` as a process on `broker` with instance id `kill` and its store under `data`,
    /// and returns once it announced itself online (live, not the retained presence of a previous run),
    /// so its subscriptions are in place. The process is SIGKILLed when the returned object is released.
    static func start(
        _ service: String, broker: TestBroker, data: URL, observer: MQTTClient, environment: [String: String] = [:]
    ) async throws -> ServiceProcess {
        let presence = try await MessageCollector(observer, "guardian/services/\(service)/kill")
        presence.clear()
        var variables = [
            "GUARDIAN_MQTT_URL": broker.url, "GUARDIAN_DATA_DIR": data.path, "GUARDIAN_INSTANCE_ID": "kill", "GUARDIAN_STATS_INTERVAL": "1",
            "GUARDIAN_LOG_LEVEL": "warning", "GUARDIAN_MODELS_DIR": TestBroker.repositoryRoot.appendingPathComponent("Models").path,
        ]
        variables.merge(environment) { $1 }
        let process = try ServiceProcess(
            executable: executables.appendingPathComponent(service), environment: variables,
            logFile: data.appendingPathComponent("\(service).log"))
        let online = await waitUntil(timeout: .seconds(120)) {
            presence.all.contains { !$0.retain && (try? JSONDecoder().decode(Presence.self, from: $0.payload))?.status == .online }
        }
        guard online else {
            process.kill(signal: SIGKILL)
            let log = (try? String(contentsOf: data.appendingPathComponent("\(service).log"), encoding: .utf8)) ?? ""
            throw TestBrokerError.cannotStart("\(service) did not come online: \(log.suffix(1500))")
        }
        return process
    }

    /// Where a stream stood when its service was killed.
    struct KillPoint {
        /// Inputs the broker had acknowledged, and distinct outputs seen.
        let sent: Int
        let seen: Int

        /// The kill landed mid-stream: neither every input published nor every output seen.
        func expectMidStream(inputs: Int, outputs: Int, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(seen < outputs, "the kill landed after the stream was done", sourceLocation: sourceLocation)
            #expect(sent < inputs, "the kill landed after the whole stream was published", sourceLocation: sourceLocation)
        }
    }

    /// Once a quarter of `expected` outputs arrived (or the sender reached its hold, three fifths of the
    /// stream), kills `process` with SIGKILL, lets the sender go on and starts the service again with
    /// `restart`; then lets the stream finish and, with `waitForAll`, waits for every expected output and
    /// a moment more for anything extra. The hold keeps the kill mid-stream however slow the machine.
    static func killMidStream(
        _ process: ServiceProcess, sender: StreamSender, outputs: Tally, expected: Int, waitForAll: Bool = true,
        restart: () async throws -> ServiceProcess
    ) async throws -> (restarted: ServiceProcess, at: KillPoint) {
        try #require(await waitUntil(timeout: .seconds(120)) { outputs.distinct >= expected / 4 || sender.sent >= sender.holdAt })
        process.kill(signal: SIGKILL)
        let point = KillPoint(sent: sender.sent, seen: outputs.distinct)
        sender.resume()
        let restarted = try await restart()
        try await sender.finish()
        if waitForAll {
            await waitUntil(timeout: .seconds(180), every: .milliseconds(50)) { outputs.distinct >= expected }
            _ = await waitUntil(timeout: .milliseconds(500)) { false }  // anything extra would arrive now
        }
        return (restarted, point)
    }

    /// The most repeated outputs a kill may leave, by design: the broker delivers again every message
    /// it had sent the service unacknowledged (at most the receive maximum, 1000; a service holds a
    /// message's acknowledgement until what it caused is at the broker), and on restart the outbox
    /// publishes again what it had not yet cleared (at most as many). A replay of a whole stream is more.
    static let repeatCeiling = 2 * 1000

    /// Polls `condition` until it holds or `timeout` passes; returns whether it held.
    @discardableResult
    static func waitUntil(timeout: Duration, every interval: Duration = .milliseconds(20), _ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !condition() {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: interval)
        }
        return true
    }
}

/// Publishes a stream in order at QoS 1 (up to 64 awaiting the broker's acknowledgement) at a
/// steady `rate` per second, so that it is still flowing when a test kills a service, and counts
/// what the broker acknowledged. With `holding`, it stops after three fifths of the stream until
/// `resume()` (which `FaultHarness.killMidStream` calls once it killed the service).
final class StreamSender: Sendable {
    final class Progress: Sendable {
        let acknowledged = Atomic<Int>(0)
        let resumed = Atomic<Bool>(false)
    }

    let total: Int
    /// Three fifths of the stream: where a holding sender waits for `resume()`.
    let holdAt: Int
    private let progress = Progress()
    private let task: Task<Void, any Error>

    init(_ messages: [MQTTOutgoing], with client: MQTTClient, perSecond rate: Double, holding: Bool = false) {
        total = messages.count
        let holdAt = messages.count * 3 / 5
        self.holdAt = holdAt
        task = Task { [progress] in
            let window = PublishWindow(limit: 64)
            let failures = Mutex<[MQTTError]>([])
            var start = ContinuousClock.now
            for (index, message) in messages.enumerated() {
                if holding && index == holdAt {
                    let held = ContinuousClock.now
                    while progress.acknowledged.load(ordering: .relaxed) < index || !progress.resumed.load(ordering: .relaxed) {
                        try await Task.sleep(for: .milliseconds(5))
                    }
                    start += ContinuousClock.now - held  // the same rate after the hold
                }
                if index % 16 == 0 { try await Task.sleep(until: start + .seconds(Double(index) / rate)) }
                await window.acquire()
                client.publish(message) { result in
                    if case .failure(let error) = result { failures.withLock { $0.append(error) } }
                    progress.acknowledged.add(1, ordering: .relaxed)
                    window.release()
                }
            }
            for _ in 0..<64 { await window.acquire() }
            if let failure = failures.withLock({ $0.first }) { throw failure }
        }
    }

    /// Stops publishing when a test ends early.
    deinit { task.cancel() }

    /// Messages the broker acknowledged so far.
    var sent: Int { progress.acknowledged.load(ordering: .relaxed) }

    /// Lets a holding sender go on.
    func resume() { progress.resumed.store(true, ordering: .relaxed) }

    /// Waits until every message was acknowledged.
    func finish() async throws { try await task.value }
}

/// Counts what a subscription delivers, by a key read from each message (e.g. its `id`), and
/// keeps the first payload of each key.
final class Tally: Sendable {
    private let state = Mutex<(counts: [String: Int], first: [String: Data], arrivals: Int, sameAgain: Set<String>)>(([:], [:], 0, []))

    /// Subscribes `client` to `filter`; `key` names a message from its topic and JSON object (nil: not counted).
    init(
        _ client: MQTTClient, _ filter: String, qos: MQTTQoS = .atLeastOnce,
        key: @escaping @Sendable (_ topic: String, _ object: [String: Any]) -> String? = { _, object in object["id"] as? String }
    ) async throws {
        try await client.subscribe(filter, qos: qos) { [self] message in
            guard let object = (try? JSONSerialization.jsonObject(with: message.payload)) as? [String: Any],
                let key = key(message.topic, object)
            else { return }
            state.withLock { s in
                s.counts[key, default: 0] += 1
                s.arrivals += 1
                if let first = s.first[key] {
                    if first == message.payload { s.sameAgain.insert(key) }
                } else {
                    s.first[key] = message.payload
                }
            }
        }
    }

    /// Distinct keys seen.
    var distinct: Int { state.withLock { $0.counts.count } }
    var keys: Set<String> { state.withLock { Set($0.counts.keys) } }
    /// Deliveries beyond the first of each key.
    var repeats: Int { state.withLock { $0.arrivals - $0.counts.count } }
    /// Keys delivered more than once.
    var doubled: [String] { state.withLock { $0.counts.filter { $0.value > 1 }.map(\.key).sorted() } }
    /// Keys delivered again with the very same payload (sent again, not made anew).
    var doubledVerbatim: Int { state.withLock { $0.sameAgain.count } }
    /// The first payload of `key`, as a JSON object.
    func first(_ key: String) -> [String: Any]? {
        state.withLock { $0.first[key] }.flatMap { (try? JSONSerialization.jsonObject(with: $0)) as? [String: Any] }
    }
}
