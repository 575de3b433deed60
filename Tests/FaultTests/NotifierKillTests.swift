import Foundation
import GuardianShared
import GuardianTestSupport
import MQTT
import Testing

extension KillTests {
    /// Predictions for several devices (most above the threshold, some below) and, between them,
    /// command replies for parents: each high prediction must reach its device as one
    /// `nudge-{predictionId}`, each reply its parent as one `reply-{commandId}-accepted`, and nothing
    /// else may arrive. A notification is what a person sees: it must arrive exactly once.
    @Test("notifier killed with SIGKILL mid-stream: every notification delivered once, none lost, none doubled")
    func notifier() async throws {
        try #require(FaultHarness.built("notifier"))
        let broker = try TestBroker()
        let data = try TemporaryDirectory()
        let observer = try await broker.connectedClient("observer")
        let notifications = try await Tally(observer, "guardian/notifications/+") { topic, object in
            (object["id"] as? String).map { "\(topic.split(separator: "/").last!)/\($0)" }
        }
        // Every prediction of a device is about the same zone: no cool-down, so each one notifies.
        var notifier = try await FaultHarness.start(
            "notifier", broker: broker, data: data.url, observer: observer, environment: ["GUARDIAN_NOTIFIER_ZONE_COOLDOWN_MINUTES": "0", "GUARDIAN_LOG_LEVEL": "notice"])
        let source = try await broker.connectedClient("predictor-stand-in")

        let devices = 10, parents = 3, total = 3000
        let start: Int64 = 1_795_000_000_000
        let model = Prediction.ModelInfo(name: "purchase-predictor", version: "test", sha256: "0")
        var stream: [MQTTOutgoing] = []
        var expected: Set<String> = []
        for i in 0..<total {
            if i % 10 == 9 {
                let parent = "parent-\(i % parents)"
                let reply = CommandReply(commandId: "c\(i)", status: .accepted, summary: "Done \(i)")
                stream.append(MQTTOutgoing(topic: "guardian/parents/\(parent)/replies", payload: GuardianJSON.encode(reply)))
                expected.insert("\(parent)/reply-c\(i)-accepted")
                continue
            }
            let device = "dev-\(i % devices)", ts = Timestamp(milliseconds: start + Int64(i) * 1000)
            let probability = i % 10 == 4 ? 0.3 : 0.9
            let features = PurchaseFeatures(
                distanceToMerchant: 0.02, hourOfDay: 12, isWeekend: 0, budgetUtilization: 0.9, merchantRegretRate: 0.9, dwellTime: 0)
            let prediction = Prediction(
                id: "p\(i)", ts: ts, deviceId: device, zoneId: "shop", merchant: "Shop", trigger: .enter, features: features, defaulted: [],
                probability: probability, threshold: 0.7, model: model)
            stream.append(MQTTOutgoing(topic: "guardian/predictions/\(device)", payload: GuardianJSON.encode(prediction)))
            if probability >= 0.7 { expected.insert("\(device)/nudge-p\(i)") }
        }
        let sender = StreamSender(stream, with: source, perSecond: 2000, holding: true)

        let kill = try await FaultHarness.killMidStream(notifier, sender: sender, outputs: notifications, expected: expected.count) {
            try await FaultHarness.start(
                "notifier", broker: broker, data: data.url, observer: observer, environment: ["GUARDIAN_NOTIFIER_ZONE_COOLDOWN_MINUTES": "0", "GUARDIAN_LOG_LEVEL": "notice"])
        }
        notifier = kill.restarted
        kill.at.expectMidStream(inputs: stream.count, outputs: expected.count)
        let missing = expected.subtracting(notifications.keys), extra = notifications.keys.subtracting(expected)
        #expect(missing.count == 0, "\(missing.count) notifications lost, e.g. \(missing.sorted().prefix(3))")
        #expect(extra.count == 0, "\(extra.count) unexpected notifications, e.g. \(extra.sorted().prefix(3))")
        let doubled = notifications.doubled
        let log = (try? String(contentsOf: data.url.appendingPathComponent("notifier.log"), encoding: .utf8)) ?? ""
        let outboxLines = log.split(separator: "\n").filter { $0.contains("outbox") || $0.contains("broker never received") }
        #expect(doubled.count == 0, "\(doubled.count) notifications delivered twice (\(notifications.doubledVerbatim) byte for byte), e.g. \(doubled.prefix(3)); the notifier's outbox said: \(outboxLines.suffix(5))")
        // The restart sent again only what the broker never received (its barrier came back), not
        // everything left in the outbox after a timeout.
        #expect(!log.contains("barrier did not come back"))

        notifier.kill()
        await source.shutdown()
        await observer.shutdown()
        broker.stop()
    }
}
