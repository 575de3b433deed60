import Foundation
import GuardianShared
import GuardianTestSupport
import MQTT
import Testing

extension KillTests {
    /// Geofence events (enter, dwell, exit) for devices with a full and an empty budget: every enter
    /// and dwell gives one prediction with the event's id, the likely-regret ones also a nudge, an
    /// exit nothing.
    @Test("predictor killed with SIGKILL mid-stream: a prediction for every enter and dwell, a nudge for every high one, none lost")
    func predictor() async throws {
        try #require(FaultHarness.built("predictor"))
        let broker = try TestBroker()
        let data = try TemporaryDirectory()
        let observer = try await broker.connectedClient("observer")
        let devices = 6, visits = 200
        let start: Int64 = 1_795_000_000_000
        try await observer.publish(
            "guardian/zones/shop", payload: GuardianJSON.encode(DangerZone(name: "Shop", lat: 10, lon: 10, merchant: "Shop", regretRate: 0.9)),
            retain: true)
        let predictions = try await Tally(observer, "guardian/predictions/+")
        let nudges = try await Tally(observer, "guardian/nudges/+")
        var predictor = try await FaultHarness.start("predictor", broker: broker, data: data.url, observer: observer)
        let source = try await broker.connectedClient("geofence-stand-in")

        // Context first (the same connection keeps it ahead of the triggers): half the devices spent their budget.
        var stream: [MQTTOutgoing] = (0..<devices).map { d in
            let ts = Timestamp(milliseconds: start)
            let budget = DeviceEvent(id: "b-\(d)", deviceId: "dev-\(d)", ts: ts, receivedAt: ts, body: Budget(utilization: d % 2 == 0 ? 1 : 0))
            return MQTTOutgoing(topic: "guardian/events/dev-\(d)/budget", payload: GuardianJSON.encode(budget))
        }
        var expected: Set<String> = []
        for v in 0..<visits {
            for (step, type) in [(0, GeofenceEvent.Kind.enter), (600, .dwell), (900, .exit)] {
                for d in 0..<devices {
                    let ts = Timestamp(milliseconds: start + Int64(v * 3600 + step) * 1000)
                    let id = "g-\(d)-\(v)-\(type.rawValue)"
                    let event = GeofenceEvent(
                        id: id, ts: ts, deviceId: "dev-\(d)", type: type, zoneId: "shop", zoneName: "Shop", merchant: "Shop",
                        distance: type == .exit ? 300 : 20, dwellSeconds: Double(step), location: .init(lat: 10, lon: 10), source: .server)
                    stream.append(MQTTOutgoing(topic: "guardian/geofence/dev-\(d)", payload: GuardianJSON.encode(event)))
                    if type != .exit { expected.insert(id) }
                }
            }
        }
        let sender = StreamSender(stream, with: source, perSecond: 2000, holding: true)

        let kill = try await FaultHarness.killMidStream(predictor, sender: sender, outputs: predictions, expected: expected.count) {
            try await FaultHarness.start("predictor", broker: broker, data: data.url, observer: observer)
        }
        predictor = kill.restarted
        kill.at.expectMidStream(inputs: stream.count, outputs: expected.count)
        let lost = expected.subtracting(predictions.keys).count, unexpected = predictions.keys.subtracting(expected).count
        #expect(lost == 0 && unexpected == 0, "\(lost) predictions lost, \(unexpected) unexpected")
        let shouldNudge = Set(predictions.keys.filter { predictions.first($0)?["shouldNudge"] as? Bool == true })
        let nudgesLost = shouldNudge.subtracting(nudges.keys).count, nudgesUnexpected = nudges.keys.subtracting(shouldNudge).count
        #expect(nudgesLost == 0 && nudgesUnexpected == 0, "\(nudgesLost) nudges lost, \(nudgesUnexpected) unexpected")
        #expect(!shouldNudge.isEmpty && shouldNudge.count < expected.count, "the stream should give some nudges and some plain predictions")
        // At-least-once across a crash: the outbox republishes, with the same id (the geofence event's),
        // what the broker had not acknowledged or the service had not yet cleared (every 200 ms);
        // consumers (the notifier) drop repeats by id; and the broker delivers again what the predictor
        // had not acknowledged (`FaultHarness.repeatCeiling`): not a replay of the stream (2,400 predictions;
        // its nudges, about half, are too few for the ceiling to tell).
        #expect(predictions.repeats <= FaultHarness.repeatCeiling, "\(predictions.repeats) prediction and \(nudges.repeats) nudge repeats")

        predictor.kill()
        await source.shutdown()
        await observer.shutdown()
        broker.stop()
    }
}
