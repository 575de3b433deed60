import Foundation
import GuardianTestSupport
import MQTT

/// A broker and Guardian services started as their own (release) processes for a benchmark.
final class BenchEnvironment {
    let broker: TestBroker
    let data: TemporaryDirectory
    let executables: URL
    private(set) var processes: [String: ServiceProcess] = [:]

    init(executables: URL) throws {
        self.executables = executables
        broker = try TestBroker()
        data = try TemporaryDirectory()
    }

    deinit { stop() }

    /// Starts `service` and waits until it announces itself online.
    @discardableResult
    func start(_ service: String, environment: [String: String] = [:]) async throws -> ServiceProcess {
        let watcher = try await broker.connectedClient("bench-watch-\(service)")
        let presence = try await MessageCollector(watcher, "guardian/services/\(service)/bench")
        let process = try ServiceProcess(
            executable: executables.appendingPathComponent(service),
            environment: [
                "GUARDIAN_MQTT_URL": broker.url, "GUARDIAN_DATA_DIR": data.url.appendingPathComponent(service).path,
                "GUARDIAN_INSTANCE_ID": "bench", "GUARDIAN_LOG_LEVEL": "warning",
                "GUARDIAN_MODELS_DIR": URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Models").path,
            ].merging(environment) { $1 },
            logFile: data.url.appendingPathComponent("\(service).log"))
        processes[service] = process
        let deadline = ContinuousClock.now + .seconds(30)
        while !presence.objects.contains(where: { $0["status"] as? String == "online" }) {
            guard ContinuousClock.now < deadline else {
                await watcher.shutdown()
                throw BenchmarkError.notReady(service)
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        await watcher.shutdown()
        return process
    }

    func stop() {
        for process in processes.values { process.kill() }
        processes = [:]
        broker.stop()
    }
}

/// Percentiles of a sample, in the sample's unit.
struct Percentiles {
    let sorted: [Double]
    init(_ values: [Double]) { sorted = values.sorted() }
    func at(_ p: Double) -> Double { sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
}
