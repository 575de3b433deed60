import Foundation
import GuardianShared
import GuardianTestSupport
import MQTT

/// Notifications per second through the notifier (de-duplication history on), beside the broker's
/// raw relay rate for the same payloads.
struct NotifierBenchmark {
    let executables: URL
    var count = Int(ProcessInfo.processInfo.environment["GUARDIAN_BENCH_NOTIFICATIONS"] ?? "") ?? 20_000

    func run() async throws {
        let environment = try BenchEnvironment(executables: executables)
        defer { environment.stop() }
        print("== notifier (\(count) predictions above threshold, distinct devices and zones) ==")
        let features = PurchaseFeatures(distanceToMerchant: 0.05, hourOfDay: 22, isWeekend: 1, budgetUtilization: 0.9, merchantRegretRate: 0.8, dwellTime: 0)
        let payloads = (0..<count).map { i in
            GuardianJSON.encode(
                Prediction(
                    id: "n\(i)", ts: .now(), deviceId: "d\(i % 1000)", zoneId: "z\(i)", merchant: "Shop", trigger: .enter, features: features,
                    defaulted: [], probability: 0.9, threshold: 0.7, model: .init(name: "purchase-predictor", version: "1", sha256: "x")))
        }
        let meter = RelayMeter(broker: environment.broker)
        let raw = try await meter.measure(publishTo: { "bench/raw/\($0 % 1000)" }, payloads: payloads, filter: "bench/raw/#", expected: count)
        try await environment.start("notifier", environment: ["GUARDIAN_STATS_INTERVAL": "1"])
        let watcher = try await environment.broker.connectedClient("bench-notifier-stats")
        let presence = try await MessageCollector(watcher, "guardian/services/notifier/bench")
        let errors = try await MessageCollector(watcher, "guardian/errors/#")
        let notified: Double
        do {
            notified = try await meter.measure(
                publishTo: { "guardian/predictions/d\($0 % 1000)" }, payloads: payloads, filter: "guardian/notifications/+", expected: count,
                timeout: .seconds(30))
        } catch {
            try await Task.sleep(for: .seconds(2))
            print("notifier stats: \(presence.objects.last?["stats"] ?? "none"); errors: \(errors.count)")
            throw error
        }
        print(String(format: "raw broker relay        %10.0f msg/s   (baseline)", raw))
        print(String(format: "notifier                %10.0f notifications/s  ratio %.2f of raw relay   goal >= 20000/s  %@",
                     notified, notified / raw, notified >= 20_000 ? "met" : "NOT MET"))
    }
}
