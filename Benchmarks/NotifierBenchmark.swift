import Foundation
import GuardianShared
import GuardianTestSupport
import MQTT

/// Notifications per second through the notifier (de-duplication history on), beside the broker's
/// raw relay rate for the same payloads.
struct NotifierBenchmark {
    let executables: URL
    var count = Int(ProcessInfo.processInfo.environment["GUARDIAN_BENCH_NOTIFICATIONS"] ?? "") ?? 30_000
    let rounds = 5

    func run() async throws {
        let environment = try BenchEnvironment(executables: executables)
        defer { environment.stop() }
        print("== notifier (\(count) predictions above threshold a round, distinct devices and zones) ==")
        let features = PurchaseFeatures(distanceToMerchant: 0.05, hourOfDay: 22, isWeekend: 1, budgetUtilization: 0.9, merchantRegretRate: 0.8, dwellTime: 0)
        func payloads(round: Int) -> [Data] {
            (0..<count).map { i in
                GuardianJSON.encode(
                    Prediction(
                        id: "n\(round)-\(i)", ts: .now(), deviceId: "d\(i % 1000)", zoneId: "z\(round)-\(i)", merchant: "Shop", trigger: .enter,
                        features: features, defaulted: [], probability: 0.9, threshold: 0.7,
                        model: .init(name: "purchase-predictor", version: "1", sha256: "x")))
            }
        }
        let meter = RelayMeter(broker: environment.broker)
        try await environment.start("notifier", environment: ["GUARDIAN_STATS_INTERVAL": "1"])
        let watcher = try await environment.broker.connectedClient("bench-notifier-stats")
        let presence = try await MessageCollector(watcher, "guardian/services/notifier/bench")
        let errors = try await MessageCollector(watcher, "guardian/errors/#")
        // Alternating rounds, so that a slow moment of the machine touches both figures alike.
        var raws: [Double] = []
        var rates: [Double] = []
        var relayCPU = CPUPerMessage()
        var notifierCPU = CPUPerMessage()
        for round in 0..<rounds {
            let batch = payloads(round: round)
            var before = environment.usage()
            raws.append(try await meter.measure(publishTo: { "bench/raw/\($0 % 1000)" }, payloads: batch, filter: "bench/raw/#", expected: count))
            relayCPU.record(before, environment.usage(), messages: count)
            before = environment.usage()
            do {
                rates.append(
                    try await meter.measure(
                        publishTo: { "guardian/predictions/d\($0 % 1000)" }, payloads: batch, filter: "guardian/notifications/+", expected: count,
                        timeout: .seconds(60)))
                notifierCPU.record(before, environment.usage(), messages: count)
            } catch {
                try await Task.sleep(for: .seconds(2))
                print("notifier stats: \(presence.objects.last?["stats"] ?? "none"); errors: \(errors.count)")
                throw error
            }
        }
        let raw = raws.sorted()[rounds / 2]
        let notified = rates.sorted()[rounds / 2]
        func list(_ values: [Double]) -> String { values.map { String(format: "%.0f", $0) }.joined(separator: ", ") }
        print(String(format: "raw broker relay        %10.0f msg/s   (baseline; median of %d rounds: %@)", raw, rounds, list(raws)))
        print(String(format: "notifier                %10.0f notifications/s  ratio %.2f of raw relay   goal >= 20000/s  %@   (median of %@)",
                     notified, notified / raw, notified >= 20_000 ? "met" : "NOT MET", list(rates)))
        let perRound = RoundRatios(rates, over: raws)
        print("notifier                \(perRound.summary)")
        print(perRound.verdict("notifier", atLeast: 0.35))
        print("  cpu, raw relay:  " + relayCPU.summary(order: ["mosquitto", "bench"], unit: "message"))
        print("  cpu, notifier:   " + notifierCPU.summary(order: ["notifier", "mosquitto", "bench"], unit: "notification")
              + " (each notification: a prediction in, the notification out and back as an echo)")
    }
}
