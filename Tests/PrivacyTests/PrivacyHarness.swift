import Foundation
import GuardianCommandRouter
import GuardianGeofence
import GuardianIngest
import GuardianNotifier
import GuardianPredictor
import GuardianShared
import GuardianTestSupport
import GuardianTimeline
import MQTT
import ServiceLifecycle

/// Every data service in this process over one secured broker (the repository's passwords and
/// ACL), each with its own data directory, and a family: `parent-alex` with the child `tablet-sam`.
final class PrivacyHarness: @unchecked Sendable {
    static let services = ["ingest", "geofence", "predictor", "timeline", "command-router", "notifier"]
    static let child = "tablet-sam"
    static let parent = "parent-alex"

    let broker = try! TestBroker(access: .secured)
    let admin: MQTTClient
    var directories: [String: TemporaryDirectory] = [:]
    var tasks: [String: Task<Void, any Error>] = [:]
    var running: [String: any Service & Sendable] = [:]
    let extra: [String: String]
    let clock: ServiceClock

    init(extra: [String: String] = [:], clock: ServiceClock = .system) async throws {
        self.extra = extra
        self.clock = clock
        admin = try await broker.connectedClient("admin")
        for service in Self.services { directories[service] = try TemporaryDirectory() }
        let family = Family(parents: [Self.parent], children: [Family.Child(deviceId: Self.child, name: "Sam")])
        try await admin.publish("guardian/families/fam-sam", payload: GuardianJSON.encode(family), retain: true)
        let other = Family(parents: ["alice"], children: [Family.Child(deviceId: "phone-alice", name: "Al")])
        try await admin.publish("guardian/families/fam-alice", payload: GuardianJSON.encode(other), retain: true)
        let zone = DangerZone(name: "Arcade", lat: 48.8566, lon: 2.3522, radius: 200, merchant: "Arcade", regretRate: 0.95)
        try await admin.publish("guardian/zones/z-arcade", payload: GuardianJSON.encode(zone), retain: true)
    }

    func make(_ name: String) throws -> any Service & Sendable {
        let config = try broker.serviceConfig(service: name, dataDirectory: directories[name]!.url, extra: extra)
        switch name {
        case "ingest": return try IngestService(config: config, logger: .quiet, clock: clock)
        case "geofence": return try GeofenceService(config: config, logger: .quiet, clock: clock)
        case "predictor":
            let models = ["GUARDIAN_MODELS_DIR": TestBroker.repositoryRoot.appendingPathComponent("Models").path]
            let config = try broker.serviceConfig(service: name, dataDirectory: directories[name]!.url, extra: extra.merging(models) { $1 })
            return try PredictorService(config: config, logger: .quiet, clock: clock)
        case "timeline":
            let retrain = ["GUARDIAN_TIMELINE_RETRAIN_DELAY_MS": "0"]
            let config = try broker.serviceConfig(service: name, dataDirectory: directories[name]!.url, extra: extra.merging(retrain) { $1 })
            return try TimelineService(config: config, logger: .quiet, clock: clock)
        case "command-router": return try CommandRouterService(config: config, logger: .quiet, clock: clock)
        default: return try NotifierService(config: config, logger: .quiet, clock: clock)
        }
    }

    func start(_ names: [String] = PrivacyHarness.services) async throws {
        for name in names {
            let service = try make(name)
            running[name] = service
            tasks[name] = try await startInProcess(service, name: name, observer: admin, timeout: .seconds(120))
        }
    }

    func stop(_ names: [String] = PrivacyHarness.services) async {
        for name in names {
            await stopInProcess(tasks[name])
            tasks[name] = nil
            running[name] = nil
        }
    }

    func shutdown() async {
        await stop()
        await admin.shutdown()
        broker.stop()
    }

    /// A counter of a running service (as its presence reports it).
    func counter(_ service: String, _ key: String) -> Int {
        switch running[service] {
        case let s as IngestService: return s.counters[key]
        case let s as GeofenceService: return s.counters[key]
        case let s as PredictorService: return s.counters[key]
        case let s as TimelineService: return s.counters[key]
        case let s as CommandRouterService: return s.counters[key]
        case let s as NotifierService: return s.counters[key]
        default: return 0
        }
    }

    /// How many times `text` occurs in the bytes of every file of the service's data directory.
    func occurrences(of text: String, in service: String) -> Int { places(of: text, in: service).count }

    /// Where `text` occurs in the service's files: the file's name and the bytes around it.
    func places(of text: String, in service: String) -> [String] { places(of: text, inDirectory: directories[service]!.url) }

    /// Where `text` occurs in the files under `root`.
    func places(of text: String, inDirectory root: URL) -> [String] {
        let needle = Data(text.utf8)
        var places: [String] = []
        for case let url as URL in FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) ?? .init() {
            guard let data = try? Data(contentsOf: url) else { continue }
            var range = data.startIndex..<data.endIndex
            while let found = data.range(of: needle, in: range) {
                let context = data[max(data.startIndex, found.lowerBound - 60)..<min(data.endIndex, found.upperBound + 60)]
                places.append("\(url.lastPathComponent): \(String(decoding: context.map { (32...126).contains($0) ? $0 : 46 }, as: UTF8.self))")
                range = found.upperBound..<data.endIndex
            }
        }
        return places
    }

    func eventually(_ ceiling: Duration = .seconds(60), _ condition: () async -> Bool) async -> Bool {
        await GuardianTestSupport.eventually(ceiling, condition)
    }

    /// Every retained message under `guardian/` now: subscribes, then publishes a marker that
    /// arrives after the retained messages the subscription brought.
    func retainedMessages() async throws -> [MQTTMessage] {
        let collector = try await MessageCollector(admin, "guardian/#")
        let marker = "guardian/test/marker-\(UUID().uuidString.prefix(8))"
        try await admin.publish(marker, payload: Data("end".utf8))
        _ = await eventually(.seconds(60)) { collector.all.contains { $0.topic == marker } }
        return collector.all.prefix { $0.topic != marker }.filter(\.retain)
    }

    /// Publishes a privacy request as `requester` and collects the receipts (and exports) of
    /// `expected` services until each answered (generous ceiling).
    func ask(
        _ action: PrivacyRequest.Action, about deviceId: String, as requester: String, expecting expected: [String] = PrivacyHarness.services
    ) async throws -> (receipts: [String: PrivacyReceipt], exports: [String: PrivacyExport]) {
        let client = try await broker.connectedClient("\(requester)-privacy-\(UUID().uuidString.prefix(6))", user: requester)
        defer { Task { await client.shutdown() } }
        let id = "req-\(UUID().uuidString.prefix(8).lowercased())"
        let receipts = try await MessageCollector(client, "guardian/privacy/receipts/\(requester)/\(id)/+/+")
        let exports = try await MessageCollector(client, "guardian/privacy/exports/\(requester)/\(id)/+/+")
        try await client.publish(
            "guardian/privacy/requests/\(requester)", payload: GuardianJSON.encode(PrivacyRequest(id: id, action: action, deviceId: deviceId)))
        await receipts.wait(for: expected.count, timeout: .seconds(120))
        let done = receipts.all.filter { (try? JSONDecoder().decode(PrivacyReceipt.self, from: $0.payload))?.status == .done }.count
        if action == .export { await exports.wait(for: done, timeout: .seconds(120)) }
        func byService<T: Decodable>(_ collector: MessageCollector, _: T.Type) -> [String: T] {
            Dictionary(
                collector.all.compactMap { message in
                    (try? JSONDecoder().decode(T.self, from: message.payload)).map { (String(message.topic.split(separator: "/")[5]), $0) }
                }, uniquingKeysWith: { a, _ in a })
        }
        return (byService(receipts, PrivacyReceipt.self), byService(exports, PrivacyExport.self))
    }
}
