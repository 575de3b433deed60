import Foundation
import GuardianShared
import GuardianTestSupport
import MQTT

/// Ingest throughput (accepted and republished, QoS 1) against the broker's raw relay rate for the
/// same payloads, and the ingest process's idle resident memory.
struct IngestBenchmark {
    let executables: URL
    let count = Int(ProcessInfo.processInfo.environment["GUARDIAN_BENCH_EVENTS"] ?? "") ?? 50_000
    let rounds = 5

    func run() async throws {
        let broker = try TestBroker(autosaveInterval: 10)
        let data = try TemporaryDirectory()
        print("== ingest (\(count) location events a round, QoS 1, one device per 100 events) ==")

        let meter = RelayMeter(broker: broker)
        let ingest = try ServiceProcess(
            executable: executables.appendingPathComponent("ingest"),
            environment: [
                "GUARDIAN_MQTT_URL": broker.url, "GUARDIAN_DATA_DIR": data.url.path, "GUARDIAN_INSTANCE_ID": "bench",
                "GUARDIAN_LOG_LEVEL": "warning",
            ],
            logFile: data.url.appendingPathComponent("ingest.log"))
        defer { ingest.kill() }
        try await waitOnline(broker: broker, service: "ingest")
        try await Task.sleep(for: .seconds(2))
        let idleRSS = ingest.residentBytes ?? 0

        // Alternating rounds, so that a slow moment of the machine touches both figures alike; the
        // CPU each process spent per message in each round, so a slow round shows whose time grew.
        var raws: [Double] = []
        var singles: [Double] = []
        var relayCPU = CPUPerMessage()
        var ingestCPU = CPUPerMessage()
        func usage() -> [String: ProcessUsage] {
            var result = ["ingest": ProcessUsage(pid: ingest.pid), "bench": ProcessUsage(pid: getpid())]
            if let broker = broker.processID { result["mosquitto"] = ProcessUsage(pid: broker) }
            return result
        }
        for round in 0..<rounds {
            var before = usage()
            raws.append(
                try await meter.measure(
                    publishTo: { "bench/raw/device-\($0 / 100)/location" }, payloads: payloads(round: round, prefix: "r"), filter: "bench/raw/#",
                    expected: count))
            relayCPU.record(before, usage(), messages: count)
            before = usage()
            singles.append(
                try await meter.measure(
                    publishTo: { "guardian/devices/device-\($0 / 100)/location" }, payloads: payloads(round: round, prefix: "b"),
                    filter: "guardian/events/#", expected: count))
            ingestCPU.record(before, usage(), messages: count)
        }
        let busyRSS = ingest.residentBytes ?? 0

        let batches = stride(from: 0, to: count, by: 100).map { start in
            Data(("[" + (start..<min(start + 100, count)).map { i in
                #"{"id": "c\#(i)", "ts": \#(1_795_000_000 + i), "lat": 48.85, "lon": 2.35, "acc": 10}"#
            }.joined(separator: ",") + "]").utf8)
        }
        let batched = try await meter.measure(
            publishTo: { "guardian/devices/batcher-\($0)/location" }, payloads: batches, filter: "guardian/events/#", expected: count)

        let raw = median(raws)
        let ingested = median(singles)
        let ratio = ingested / raw
        func list(_ values: [Double]) -> String { values.map { String(format: "%.0f", $0) }.joined(separator: ", ") }
        print(String(format: "raw broker relay        %10.0f msg/s   (baseline; median of %d rounds: %@)", raw, rounds, list(raws)))
        print(String(format: "ingest, single events   %10.0f events/s  ratio %.2f of raw relay   (median of %@)", ingested, ratio, list(singles)))
        let perRound = RoundRatios(singles, over: raws)
        print("ingest, single events   \(perRound.summary)")
        print(perRound.verdict("ingest", atLeast: 0.55))
        print("  cpu, raw relay:  " + relayCPU.summary(order: ["mosquitto", "bench"], unit: "message"))
        print("  cpu, ingest:     " + ingestCPU.summary(order: ["ingest", "mosquitto", "bench"], unit: "event")
              + " (the broker carries each event twice: in to ingest, out to the subscriber)")
        print(String(format: "ingest, batches of 100  %10.0f events/s  ratio %.2f of raw relay", batched, batched / raw))
        print(String(format: "ingest resident memory  idle %.1f MB, after load %.1f MB   goal idle < 30 MB  %@",
                     Double(idleRSS) / 1_048_576, Double(busyRSS) / 1_048_576, idleRSS < 30 * 1_048_576 ? "met" : "NOT MET"))
        ingest.kill()
        broker.stop()
    }

    /// Location events with ids unique to the round, one device per 100 events.
    func payloads(round: Int, prefix: String) -> [Data] {
        (0..<count).map { i in
            Data(#"{"id": "\#(prefix)\#(round)-\#(i)", "ts": \#(1_795_000_000 + i), "lat": 48.85, "lon": 2.35, "acc": 10, "speed": 1.2}"#.utf8)
        }
    }

    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    func waitOnline(broker: TestBroker, service: String) async throws {
        let watcher = try await broker.connectedClient("bench-watch-\(service)")
        let presence = try await MessageCollector(watcher, "guardian/services/\(service)/+")
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            if presence.objects.contains(where: { $0["status"] as? String == "online" }) {
                await watcher.shutdown()
                return
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        await watcher.shutdown()
        throw BenchmarkError.notReady(service)
    }
}
