import Foundation
import GuardianIngest
import GuardianShared
import GuardianTestSupport
import GuardianTimeline
import MQTT
import ServiceLifecycle
import Testing

@Suite("privacy: replicas and shards", .serialized)
struct PrivacyReplicaTests {
    /// One instance of a service with its own data directory.
    struct Replica {
        let service: String
        let instance: String
        let directory: TemporaryDirectory
        let task: Task<Void, any Error>
    }

    func start(_ service: String, instance: String, shard: String?, in h: PrivacyHarness) async throws -> Replica {
        let directory = try TemporaryDirectory()
        var extra = ["GUARDIAN_TIMELINE_RETRAIN_DELAY_MS": "0"]
        if let shard { extra["GUARDIAN_SHARD"] = shard }
        let config = try h.broker.serviceConfig(service: service, dataDirectory: directory.url, instance: instance, extra: extra)
        let task: Task<Void, any Error>
        if service == "ingest" {
            task = try await startInProcess(try IngestService(config: config, logger: .quiet), name: service, instance: instance, observer: h.admin, timeout: .seconds(120))
        } else {
            task = try await startInProcess(try TimelineService(config: config, logger: .quiet), name: service, instance: instance, observer: h.admin, timeout: .seconds(120))
        }
        return Replica(service: service, instance: instance, directory: directory, task: task)
    }

    @Test("every replica of a shared service erases and answers; of two shards both erase and only the owner answers")
    func replicasAndShards() async throws {
        let h = try await PrivacyHarness()
        let child = PrivacyHarness.child
        let owner = Shard("0/2")!.owns(deviceId: child) ? "0/2" : "1/2"
        let other = owner == "0/2" ? "1/2" : "0/2"
        var replicas: [Replica] = []
        replicas.append(try await start("ingest", instance: "a", shard: nil, in: h))
        replicas.append(try await start("ingest", instance: "b", shard: nil, in: h))
        replicas.append(try await start("timeline", instance: "owner", shard: owner, in: h))
        replicas.append(try await start("timeline", instance: "other", shard: other, in: h))

        let device = try await h.broker.connectedClient("replica-app", user: child)
        let start = Timestamp.now().adding(seconds: -3600)
        for minute in stride(from: 0.0, to: 40, by: 2) {
            let ts = start.adding(seconds: minute * 60).rfc3339
            try await device.publish("guardian/devices/\(child)/location", payload: Data(#"{"ts":"\#(ts)","lat":48.87,"lon":2.33,"acc":10}"#.utf8))
            try await device.publish("guardian/devices/\(child)/motion", payload: Data(#"{"ts":"\#(ts)","activity":"stationary"}"#.utf8))
        }
        await device.shutdown()
        let holding = { replicas.filter { h.places(of: child, inDirectory: $0.directory.url).count > 0 }.map(\.instance) }
        #expect(await h.eventually { Set(holding()) == ["a", "b", "owner"] }, "both ingest replicas and the owning shard hold the child: \(holding())")

        let requester = try await h.broker.connectedClient("admin-replicas", user: "admin")
        let receipts = try await MessageCollector(requester, "guardian/privacy/receipts/admin/r-replicas/+/+")
        try await requester.publish(
            "guardian/privacy/requests/admin", payload: GuardianJSON.encode(PrivacyRequest(id: "r-replicas", action: .forget, deviceId: child)))
        _ = await receipts.wait(for: 3, timeout: .seconds(120))
        let answered = await receipts.settle(.seconds(1)).map { $0.topic.split(separator: "/").suffix(2).joined(separator: "/") }.sorted()
        #expect(answered == ["ingest/a", "ingest/b", "timeline/owner"])
        #expect(await h.eventually { holding().isEmpty }, "a replica still holds the child: \(holding())")

        for replica in replicas { await stopInProcess(replica.task) }
        await requester.shutdown()
        await h.shutdown()
    }
}
