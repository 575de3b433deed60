import Foundation
@testable import GuardianIngest
import GuardianShared
import GuardianTestSupport
import MQTT

/// A real broker, ingest running in-process, and an observer subscribed to its outputs.
final class IngestHarness: @unchecked Sendable {
    let broker: TestBroker
    let data: TemporaryDirectory
    let observer: MQTTClient
    let events: MessageCollector
    let errors: MessageCollector
    private(set) var service: IngestService?
    private var task: Task<Void, any Error>?
    let extraEnvironment: [String: String]

    init(access: TestBroker.Access = .open, environment: [String: String] = [:]) async throws {
        broker = try TestBroker(access: access)
        data = try TemporaryDirectory()
        extraEnvironment = environment
        observer = try await broker.connectedClient("observer", user: access == .secured ? "admin" : nil)
        events = try await MessageCollector(observer, "guardian/events/#")
        errors = try await MessageCollector(observer, "guardian/errors/ingest")
        try await startIngest()
    }

    /// Starts ingest (same data directory and instance id each time, like a restarted process)
    /// and waits until it announces itself online, i.e. its subscriptions are in place.
    func startIngest() async throws {
        let config = try broker.serviceConfig(service: "ingest", dataDirectory: data.url, extra: extraEnvironment)
        let service = try IngestService(config: config, logger: .quiet)
        self.service = service
        task = try await startInProcess(service, name: "ingest", observer: observer)
    }

    /// Stops ingest gracefully.
    func stopIngest() async throws {
        await stopInProcess(task)
        task = nil
        service = nil
    }

    /// Stops ingest as a crash would: the connection drops, nothing is flushed.
    func crashIngest() async throws {
        await service?.crash()
        task?.cancel()
        try? await task?.value
        task = nil
        // Releasing the service closes its store, as the end of a process would.
        service = nil
    }

    func device(_ id: String, user: String? = nil) async throws -> MQTTClient {
        try await broker.connectedClient(id, user: user)
    }

    func shutdown() async {
        try? await stopIngest()
        await observer.shutdown()
        broker.stop()
    }

    /// The JSON objects of events received so far on `guardian/events/{deviceId}/{kind}`.
    func eventObjects(_ deviceId: String, _ kind: EventKind) -> [[String: Any]] {
        events.all.filter { $0.topic == "guardian/events/\(deviceId)/\(kind.rawValue)" }
            .compactMap { try? JSONSerialization.jsonObject(with: $0.payload) as? [String: Any] }
    }

    var errorReasons: [String] { errors.objects.compactMap { $0["reason"] as? String } }
}

extension MQTTClient {
    func send(_ topic: String, _ json: String, retain: Bool = false) async throws {
        try await publish(topic, payload: Data(json.utf8), retain: retain)
    }
}
