import Foundation
import GuardianShared
import GuardianTestSupport
import MQTT
import Synchronization
import Testing

@Suite("predictor replicas on one shared subscription")
struct PredictorScalingTests {
    @Test("three predictor processes answer every request exactly once and share the load")
    func threeReplicas() async throws {
        let executables = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let predictor = executables.appendingPathComponent("predictor")
        try #require(FileManager.default.isExecutableFile(atPath: predictor.path), "build the predictor first (swift build --build-tests)")
        let broker = try TestBroker()
        let data = try TemporaryDirectory()
        let admin = try await broker.connectedClient("admin")
        let presence = try await MessageCollector(admin, "guardian/services/predictor/+")
        let replicas = try (0..<3).map { i in
            try ServiceProcess(
                executable: predictor,
                environment: [
                    "GUARDIAN_MQTT_URL": broker.url, "GUARDIAN_DATA_DIR": data.url.appendingPathComponent("r\(i)").path,
                    "GUARDIAN_INSTANCE_ID": "r\(i)", "GUARDIAN_STATS_INTERVAL": "1", "GUARDIAN_LOG_LEVEL": "warning",
                    "GUARDIAN_MODELS_DIR": TestBroker.repositoryRoot.appendingPathComponent("Models").path,
                ],
                logFile: data.url.appendingPathComponent("r\(i).log"))
        }
        defer { replicas.forEach { $0.kill() } }
        let deadline = ContinuousClock.now + .seconds(120)
        // By presence topic (one per instance): three replicas started together often share a startedAt millisecond.
        let online = { Set(presence.all.filter { (try? JSONSerialization.jsonObject(with: $0.payload) as? [String: Any])?["status"] as? String == "online" }.map(\.topic)) }
        while online().count < 3 {
            guard ContinuousClock.now < deadline else { throw TestBrokerError.cannotStart("three predictors did not come online") }
            try await Task.sleep(for: .milliseconds(50))
        }

        let answers = Mutex<[String: Int]>([:])
        try await admin.subscribe("replies/#") { message in
            let id = String(decoding: message.properties.correlationData ?? Data(), as: UTF8.self)
            answers.withLock { $0[id, default: 0] += 1 }
        }
        let total = 300
        for i in 0..<total {
            try await admin.publish(
                "guardian/predictor/requests", payload: Data(#"{"features": [0.05, 22, 1, 0.9, 0.8, 10]}"#.utf8),
                properties: MQTTProperties(responseTopic: "replies/\(i % 7)", correlationData: Data("req-\(i)".utf8)))
        }
        _ = await eventually(.seconds(120)) { answers.withLock { $0.count } >= total }
        // Each replica reports how many it answered (presence, every second): once they add up to every
        // request, all were handled, and any second answer would have been published too.
        let reported = {
            Dictionary(grouping: presence.all, by: \.topic).compactMapValues { messages in
                messages.compactMap { (try? JSONSerialization.jsonObject(with: $0.payload) as? [String: Any])?["stats"] as? [String: Int] }.last?["requests"]
            }
        }
        _ = await eventually(.seconds(120)) { reported().values.reduce(0, +) >= total }
        try await Task.sleep(for: .milliseconds(500))  // anything extra would arrive now
        let counts = answers.withLock { $0 }
        #expect(counts.count == total)
        #expect(counts.values.allSatisfy { $0 == 1 })
        #expect(Set(counts.keys) == Set((0..<total).map { "req-\($0)" }))
        let perReplica = reported()
        #expect(perReplica.count == 3)
        #expect(perReplica.values.reduce(0, +) == total)
        #expect(perReplica.values.allSatisfy { $0 >= total / 10 })
        await admin.shutdown()
        broker.stop()
    }
}
