import Foundation
import GuardianShared
import GuardianTestSupport
import MQTT
import Synchronization

/// Enter → nudge over the real broker: a geofence `enter` published, the predictor's nudge received.
struct PipelineLatencyBenchmark {
    let executables: URL
    var samples = 2_000

    func run() async throws {
        let environment = try BenchEnvironment(executables: executables)
        defer { environment.stop() }
        print("== predictor end to end (\(samples) enter events, one at a time, real broker) ==")
        try await environment.start("predictor")
        let client = try await environment.broker.connectedClient("bench-e2e")
        let arrivals = Mutex<[String: ContinuousClock.Instant]>([:])
        try await client.subscribe("guardian/nudges/+") { message in
            guard let prediction = try? JSONDecoder().decode(Prediction.self, from: message.payload) else { return }
            let now = ContinuousClock.now
            arrivals.withLock { $0[prediction.id] = now }
        }
        var latencies: [Double] = []
        for i in 0..<(samples + 200) {
            let id = "lat-\(i)"
            let event = GeofenceEvent(
                id: id, ts: Timestamp(rfc3339: "2026-11-21T22:30:00Z")!, deviceId: "bench-\(i % 50)", type: .enter, zoneId: "z", zoneName: "Z",
                merchant: "Z", distance: 20, dwellSeconds: 0, location: .init(lat: 0, lon: 0), source: .server)
            let sent = ContinuousClock.now
            try await client.publish("guardian/geofence/bench-\(i % 50)", payload: GuardianJSON.encode(event))
            let deadline = sent + .seconds(2)
            while arrivals.withLock({ $0[id] }) == nil && ContinuousClock.now < deadline { await Task.yield() }
            if i >= 200, let arrived = arrivals.withLock({ $0[id] }) { latencies.append((arrived - sent).seconds * 1000) }
        }
        await client.shutdown()
        let p = Percentiles(latencies)
        print(String(format: "enter -> nudge  p50 %.2f ms, p99 %.2f ms, p99.9 %.2f ms (%d of %d arrived)   goal p99 < 5 ms  %@",
                     p.at(0.5), p.at(0.99), p.at(0.999), latencies.count, samples, p.at(0.99) < 5 ? "met" : "NOT MET"))
    }
}
