import Foundation
import GuardianNotifier
import GuardianShared
import GuardianTestSupport
import MQTT

/// The notifier's own work per prediction (decode, rules, history, stage and hand the notification to
/// libmosquitto), called directly rather than through the broker.
struct NotifierHandlerBenchmark {
    var count = 20_000
    var burst = 100

    func run() async throws {
        let broker = try TestBroker(autosaveInterval: 10)
        let data = try TemporaryDirectory()
        let service = try NotifierService(config: try broker.serviceConfig(service: "notifier", dataDirectory: data.url, instance: "micro"), logger: .quiet)
        let task = Task { try await service.run() }
        defer { task.cancel() }
        try await Task.sleep(for: .milliseconds(500))
        let features = PurchaseFeatures(distanceToMerchant: 0.05, hourOfDay: 22, isWeekend: 1, budgetUtilization: 0.9, merchantRegretRate: 0.8, dwellTime: 0)
        let messages = (0..<count).map { i in
            MQTTMessage(
                topic: "guardian/predictions/d\(i % 1000)",
                payload: GuardianJSON.encode(
                    Prediction(
                        id: "h\(i)", ts: .now(), deviceId: "d\(i % 1000)", zoneId: "z\(i)", merchant: "Shop", trigger: .enter, features: features,
                        defaulted: [], probability: 0.9, threshold: 0.7, model: .init(name: "purchase-predictor", version: "1", sha256: "x"))))
        }
        let start = ContinuousClock.now
        for first in stride(from: 0, to: count, by: burst) { service.handlePredictions(Array(messages[first..<min(first + burst, count)])) }
        let elapsed = (ContinuousClock.now - start).seconds
        print(String(format: "notifier handler alone  %10.0f notifications/s  (%.1f µs each: decode, rules, history, stage, hand to the client; bursts of %d, echoes handled alongside)",
                     Double(count) / elapsed, elapsed / Double(count) * 1e6, burst))
        task.cancel()
        _ = try? await task.value
        broker.stop()
    }
}
