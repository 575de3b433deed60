import Foundation
import GuardianIngest
import GuardianShared
import GuardianTestSupport
import MQTT

/// Cost of ingest's handler alone (decode, normalise, commit, hand the republish to libmosquitto),
/// called directly rather than from the network thread.
struct IngestPipelineBenchmark {
    let count: Int

    func run() async throws {
        let broker = try TestBroker(autosaveInterval: 10)
        let data = try TemporaryDirectory()
        let config = try broker.serviceConfig(service: "ingest", dataDirectory: data.url, instance: "micro")
        let runtime = try BusRuntime(service: "ingest", config: config, logger: .quiet)
        try await runtime.start()
        let pipeline = IngestPipeline(runtime: runtime, store: try IngestStore(config: config, logger: .quiet))
        let messages = (0..<count).map { i in
            MQTTMessage(
                topic: "guardian/devices/micro-\(i / 100)/location",
                payload: Data(#"{"id": "m\#(i)", "ts": \#(1_795_000_000 + i), "lat": 48.85, "lon": 2.35, "acc": 10, "speed": 1.2}"#.utf8))
        }
        let start = ContinuousClock.now
        for message in messages { pipeline.handle(message) }
        let elapsed = ContinuousClock.now - start
        let perEvent = elapsed.seconds / Double(count) * 1e6
        await runtime.stop()
        print(String(format: "ingest handler alone    %10.0f events/s  (%.1f µs per event: decode, normalise, commit, enqueue)", Double(count) / elapsed.seconds, perEvent))
    }
}
