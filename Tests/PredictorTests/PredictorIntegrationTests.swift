import Foundation
@testable import GuardianPredictor
import GuardianShared
import GuardianTestSupport
import MQTT
import Testing

/// A real broker, the predictor in-process, and an admin client playing geofence and ingest.
final class PredictorHarness: @unchecked Sendable {
    let broker = try! TestBroker()
    let data = try! TemporaryDirectory()
    let admin: MQTTClient
    let predictions: MessageCollector
    let nudges: MessageCollector
    let errors: MessageCollector
    let status: MessageCollector
    var service: PredictorService?
    var task: Task<Void, any Error>?

    init() async throws {
        admin = try await broker.connectedClient("admin")
        predictions = try await MessageCollector(admin, "guardian/predictions/+")
        nudges = try await MessageCollector(admin, "guardian/nudges/+")
        errors = try await MessageCollector(admin, "guardian/errors/predictor")
        status = try await MessageCollector(admin, "guardian/models/purchase-predictor/status")
    }

    func start() async throws {
        let models = FeatureAndThresholdTests.root.appendingPathComponent("Models").path
        let config = try broker.serviceConfig(service: "predictor", dataDirectory: data.url, extra: ["GUARDIAN_MODELS_DIR": models])
        let service = try PredictorService(config: config, logger: .quiet)
        self.service = service
        task = try await startInProcess(service, name: "predictor", observer: admin)
    }

    func stop() async {
        await stopInProcess(task)
        task = nil
        service = nil
    }

    func trigger(_ device: String, _ type: GeofenceEvent.Kind, at text: String, zone: String = "tech", distance: Double = 40, dwell: Double = 0, id: String? = nil) async throws {
        let ts = Timestamp(rfc3339: text)!
        let event = GeofenceEvent(
            id: id ?? "\(device)-\(type)-\(ts.milliseconds)", ts: ts, deviceId: device, type: type, zoneId: zone, zoneName: "Tech Store",
            merchant: "Tech Store", distance: distance, dwellSeconds: dwell, location: .init(lat: 0, lon: 0), source: .server)
        try await admin.publish("guardian/geofence/\(device)", payload: GuardianJSON.encode(event))
    }

    func context(_ device: String, budget: Double, timezone: String) async throws {
        let ts = Timestamp(rfc3339: "2026-11-20T00:00:00Z")!
        try await admin.publish(
            "guardian/events/\(device)/budget", payload: GuardianJSON.encode(DeviceEvent(id: "b", deviceId: device, ts: ts, receivedAt: ts, body: Budget(utilization: budget))))
        try await admin.publish(
            "guardian/events/\(device)/profile",
            payload: GuardianJSON.encode(DeviceEvent(id: "p", deviceId: device, ts: ts, receivedAt: ts, body: DeviceProfile(timezone: timezone, role: .adult))),
            retain: true)
        try await admin.publish("guardian/zones/tech", payload: GuardianJSON.encode(DangerZone(name: "Tech Store", lat: 0, lon: 0, regretRate: 0.9)), retain: true)
    }

    var predictionObjects: [Prediction] { predictions.all.compactMap { try? JSONDecoder().decode(Prediction.self, from: $0.payload) } }

    func shutdown() async {
        await stop()
        await admin.shutdown()
        broker.stop()
    }

    static func modelMessage(_ folder: String, version: String, corrupt: Bool = false) throws -> Data {
        let model = String(decoding: try FeatureAndThresholdTests.file("Models/test-models/\(folder)/model.json"), as: UTF8.self)
        let vectors = String(decoding: try FeatureAndThresholdTests.file("Models/test-models/\(folder)/vectors.json"), as: UTF8.self)
        let body = corrupt ? String(model.prefix(model.count / 2)) : model
        return Data(#"{"version": "\#(version)", "sha256": "\#(SHA256.hex(Array(model.utf8)))", "model": \#(body), "vectors": \#(vectors)}"#.utf8)
    }
}

@Suite("predictor over a real mosquitto")
struct PredictorIntegrationTests {
    @Test("enter and dwell give predictions from real context; a high one also a nudge; exit gives nothing")
    func predictions() async throws {
        let h = try await PredictorHarness()
        try await h.start()
        try await h.context("phone-1", budget: 0.95, timezone: "Europe/Paris")
        let applied = await eventually {
            h.service?.context.withLock { $0.budgets["phone-1"] != nil && $0.timeZones["phone-1"] != nil && $0.regretRates["tech"] != nil } == true
        }
        try #require(applied, "the budget, profile and zone reached the predictor")
        // Saturday 22:30 UTC is 23:30 in Paris.
        try await h.trigger("phone-1", .enter, at: "2026-11-21T22:30:00Z", distance: 40)
        try await h.trigger("phone-1", .dwell, at: "2026-11-21T22:36:00Z", distance: 60, dwell: 360)
        try await h.trigger("phone-1", .exit, at: "2026-11-21T22:40:00Z", distance: 300, dwell: 600)
        try await h.trigger("phone-2", .enter, at: "2026-11-18T10:00:00Z", zone: "unknown", distance: 190)
        await h.predictions.wait(for: 3)
        let all = await h.predictions.settle()
        #expect(all.count == 3)
        let enter = try #require(h.predictionObjects.first { $0.deviceId == "phone-1" && $0.trigger == .enter })
        #expect(enter.features == PurchaseFeatures(distanceToMerchant: 0.04, hourOfDay: 23, isWeekend: 1, budgetUtilization: 0.95, merchantRegretRate: 0.9, dwellTime: 0))
        #expect(enter.defaulted.isEmpty && enter.threshold == 0.70 && enter.model.version == "1.0.0" && enter.model.name == "purchase-predictor")
        #expect(enter.shouldNudge == (enter.probability >= 0.70) && enter.riskLevel == RiskLevel(probability: enter.probability))
        let dwell = try #require(h.predictionObjects.first { $0.trigger == .dwell })
        #expect(dwell.features.dwellTime == 6)
        let other = try #require(h.predictionObjects.first { $0.deviceId == "phone-2" })
        #expect(other.defaulted == ["budgetUtilization", "merchantRegretRate"] && other.features.budgetUtilization == 0.75)
        let expectedNudges = h.predictionObjects.filter(\.shouldNudge).count
        #expect(expectedNudges >= 1)
        #expect(await h.nudges.wait(for: expectedNudges).count == expectedNudges)
        #expect(h.nudges.all.allSatisfy { $0.topic.hasPrefix("guardian/nudges/") })
        await h.shutdown()
    }

    @Test("on-demand requests are answered on the MQTT 5 response topic with the correlation data, or on replyTo")
    func requests() async throws {
        let h = try await PredictorHarness()
        try await h.start()
        let replies = try await MessageCollector(h.admin, "replies/#")
        let correlation = Data("req-42".utf8)
        try await h.admin.publish(
            "guardian/predictor/requests", payload: Data(#"{"features": [0.05, 23, 1, 0.95, 0.9, 10]}"#.utf8),
            properties: MQTTProperties(responseTopic: "replies/a", correlationData: correlation))
        try await h.admin.publish(
            "guardian/predictor/requests", payload: Data(#"{"features": [5, 10, 0, 0.1, 0.1, 0], "replyTo": "replies/b"}"#.utf8))
        try await h.admin.publish("guardian/predictor/requests", payload: Data(#"{"features": [5, 10, 0, 0.1, 0.1, 0]}"#.utf8))
        let answers = await replies.wait(for: 2)
        let a = try #require(answers.first { $0.topic == "replies/a" })
        #expect(a.properties.correlationData == correlation)
        let response = try JSONDecoder().decode(PredictionResponse.self, from: a.payload)
        #expect(response.modelType == "xgboost" && response.threshold == 0.70 && response.shouldNudge == (response.probability >= 0.70))
        #expect(answers.contains { $0.topic == "replies/b" })
        #expect(await h.errors.wait(for: 1).count == 1)
        await h.shutdown()
    }

    @Test("a hot swap under load loses no prediction; a corrupt model is refused and the running one kept")
    func hotSwap() async throws {
        let h = try await PredictorHarness()
        try await h.start()
        let total = 400
        // The first is answered before the rest go out: by the model the service started with.
        try await h.trigger("load", .enter, at: "2026-11-21T22:30:00Z", id: "t0")
        _ = await h.predictions.wait(for: 1)
        for i in 1..<total {
            if i == total / 2 {
                try await h.admin.publish("guardian/models/purchase-predictor", payload: try PredictorHarness.modelMessage("missing-values", version: "2"), retain: true)
            }
            try await h.trigger("load", .enter, at: "2026-11-21T22:30:00Z", id: "t\(i)")
        }
        await h.predictions.wait(for: total)
        let versions = h.predictionObjects.map(\.model.version)
        #expect(versions.count == total)
        #expect(Set(h.predictionObjects.map(\.id)) == Set((0..<total).map { "t\($0)" }))
        #expect(versions.first == "1.0.0" && versions.last == "2")
        try await h.admin.publish("guardian/models/purchase-predictor", payload: try PredictorHarness.modelMessage("legacy-base-score", version: "3", corrupt: true), retain: true)
        // The refusal is counted, then its status (still version 2, with the error) published.
        _ = await eventually { h.service?.counters["modelRefusals"] == 1 && (h.status.objects.last?["lastError"] as? String)?.isEmpty == false }
        let last = try #require(h.status.objects.last)
        #expect(last["version"] as? String == "2" && last["source"] as? String == "topic")
        #expect((last["lastError"] as? String)?.isEmpty == false)
        #expect(h.service?.counters["modelRefusals"] == 1)
        h.predictions.clear()
        try await h.trigger("load", .enter, at: "2026-11-21T22:31:00Z", id: "after")
        #expect(h.predictionObjectsAfterWait(await h.predictions.wait(for: 1)).first?.model.version == "2")
        await h.shutdown()
    }

    @Test("at start a valid retained model wins over the bundled one; an invalid one does not")
    func startupModel() async throws {
        let h = try await PredictorHarness()
        try await h.admin.publish("guardian/models/purchase-predictor", payload: try PredictorHarness.modelMessage("legacy-base-score", version: "7"), retain: true)
        try await h.start()
        #expect(await eventually { h.service?.currentModel.info.version == "7" })
        await h.stop()
        // Restarted: the stored topic model is used from the first message on.
        try await h.start()
        #expect(h.service?.currentModel.info.version == "7")
        await h.shutdown()

        let fresh = try await PredictorHarness()
        try await fresh.admin.publish("guardian/models/purchase-predictor", payload: try PredictorHarness.modelMessage("legacy-base-score", version: "8", corrupt: true), retain: true)
        try await fresh.start()
        #expect(await eventually { fresh.service?.counters["modelRefusals"] == 1 }, "the retained corrupt model was read")
        #expect(fresh.service?.currentModel.info.version == "1.0.0" && fresh.service?.currentModel.source == .bundled)
        await fresh.shutdown()
    }

    @Test("garbage triggers are reported and valid ones still predicted")
    func garbage() async throws {
        let h = try await PredictorHarness()
        try await h.start()
        try await h.admin.publish("guardian/geofence/x", payload: Data("nonsense".utf8))
        try await h.admin.publish("guardian/geofence/x", payload: Data(#"{"id": "1"}"#.utf8))
        try await h.trigger("y", .enter, at: "2026-11-21T22:30:00Z")
        try await h.admin.publish("guardian/geofence/z", payload: Data())
        #expect(await h.predictions.wait(for: 1).count == 1)
        #expect(await h.errors.wait(for: 3).count == 3)
        await h.shutdown()
    }
}

extension PredictorHarness {
    func predictionObjectsAfterWait(_ messages: [MQTTMessage]) -> [Prediction] {
        messages.compactMap { try? JSONDecoder().decode(Prediction.self, from: $0.payload) }
    }
}
