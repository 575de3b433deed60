import Foundation
import GuardianPredictor
import GuardianShared
import GuardianTestSupport
import MQTT
import Testing

/// Geofence events, prediction requests, budgets, profiles and model updates that break the contract.
/// Zones are left out: the predictor reads them only for a regret rate and, by design, ignores a bad
/// one silently (geofence reports it).
enum PredictorHostility {
    static let geofenceEvent = HostileSchema([
        HostileField("id", .string) { rng in .string("g-\(rng.int(0...999_999))") },
        HostileField("ts", .timestamp) { rng in .string(Timestamp(milliseconds: 1_795_000_000_000 + Int64(rng.int(0...86_400_000))).rfc3339) },
        HostileField("deviceId", .id) { _ in .string("fz-1") },
        HostileField("type", .choice(["enter", "exit", "dwell"])) { rng in .string(rng.pick(["enter", "dwell"])) },
        HostileField("zoneId", .id) { rng in .string("zone-\(rng.int(0...99))") },
        HostileField("zoneName", .string) { _ in .string("Tech Store") },
        HostileField("merchant", .string, required: false) { _ in .string("Tech Store") },
        HostileField("distance", .anyNumber) { rng in .number(rng.double(0...300)) },
        HostileField("dwellSeconds", .anyNumber) { rng in .number(rng.double(0...600)) },
        HostileField(
            "location",
            .object([
                HostileField("lat", .anyNumber) { _ in .number(48.85) },
                HostileField("lon", .anyNumber) { _ in .number(2.35) },
                HostileField("acc", .anyNumber, required: false) { _ in .number(10) },
            ])
        ) { _ in .object([("lat", .number(48.85)), ("lon", .number(2.35))]) },
        HostileField("source", .choice(["server", "device"])) { rng in .string(rng.pick(["server", "device"])) },
    ])

    static let features: [HostileField] = [
        HostileField("distanceToMerchant", .number(min: 0, max: 20_040)) { rng in .number(rng.double(0...2)) },
        HostileField("hourOfDay", .number(min: 0, max: 23)) { rng in .number(Double(rng.int(0...23))) },
        HostileField("isWeekend", .number(min: 0, max: 1)) { rng in .number(Double(rng.int(0...1))) },
        HostileField("budgetUtilization", .number(min: 0, max: 1)) { rng in .number(rng.double(0...1)) },
        HostileField("merchantRegretRate", .number(min: 0, max: 1)) { rng in .number(rng.double(0...1)) },
        HostileField("dwellTime", .number(min: 0, max: 100_000)) { rng in .number(rng.double(0...30)) },
    ]

    static func validFeatures(_ rng: inout SeededRandom) -> HJSON { HostileSchema(features).valid(&rng) }

    static let request = HostileSchema([
        HostileField(
            "features", .object(features),
            extraBad: [
                .array([.number(1), .number(2), .number(0), .number(0.5), .number(0.5)]),
                .array((0..<7).map { _ in .number(0) }), .array([]), .array([.string("1"), .number(2)]),
                .array([.number(1), .number(24), .number(0), .number(0.5), .number(0.5), .number(3)]),
            ]
        ) { rng in validFeatures(&rng) },
        // Without replyTo and without an MQTT 5 response topic there is nowhere to answer: reported.
        HostileField("replyTo", .text(max: 256), extraBad: [.string("guardian/+/x"), .string("a/#"), .string("$SYS/x"), .string("#")]) { _ in
            .string("guardian/predictor/responses/fuzz/bad")
        },
    ])

    static let budget = EventFields.envelope([
        HostileField("utilization", .number(min: 0, max: 1)) { rng in .number(rng.double(0...1)) },
        HostileField("spent", .number(min: 0, max: 1e15), required: false, inTemplate: false) { _ in .number(1) },
        HostileField("limit", .number(min: 0, max: 1e15), required: false, inTemplate: false) { _ in .number(2) },
    ])

    /// Model updates: the `model` of these never parses as an XGBoost model, so each is refused.
    static let model = HostileSchema([
        HostileField("version", .string, extraBad: [.string(""), .string(String(repeating: "v", count: 65))]) { rng in .string("fuzz-\(rng.int(0...999))") },
        HostileField("model", .json) { rng in
            rng.pick([.object([]), .object([("learner", .object([]))]), .string("not a model"), .array([]), .number(1)])
        },
        HostileField("sha256", .string, required: false) { _ in .string(String(repeating: "0", count: 64)) },
    ])

    static let topics = HostileTopicSet(topics: [
        HostileTopic(
            label: "geofence", weight: 40, topic: { "guardian/geofence/\($0)" }, ids: EventFields.deviceIds + ["fuzz-ok"], schema: geofenceEvent,
            idField: "deviceId"),
        HostileTopic(
            label: "request", weight: 25, topic: { _ in "guardian/predictor/requests" }, ids: ["-"], schema: request, topicHasId: false),
        HostileTopic(
            label: "budget", weight: 15, topic: { "guardian/events/\($0)/budget" }, ids: EventFields.deviceIds + ["fuzz-ok"], schema: budget,
            idField: "deviceId"),
        HostileTopic(
            label: "profile", weight: 15, topic: { "guardian/events/\($0)/profile" }, ids: EventFields.deviceIds + ["fuzz-ok"],
            schema: EventFields.envelope(EventFields.profile), idField: "deviceId", emptyIsValid: true),
        HostileTopic(
            label: "model", weight: 2, topic: { _ in "guardian/models/purchase-predictor" }, ids: ["-"], schema: model, topicHasId: false,
            emptyIsValid: true,
            custom: { rng, _ in
                // A model given as text whose 513th nesting level opens on its last byte.
                let text = String(repeating: "[", count: 513)
                return BadMessage(
                    topic: "guardian/models/purchase-predictor",
                    payload: HJSON.object([("version", .string("v\(rng.int(0...99))")), ("model", .string(text))]).data, how: .crashNesting)
            }),
    ])
}

extension HostileInputTests {
    @Test("predictor: 100,000 hostile triggers, requests, budgets, profiles and models are each reported once; valid ones are answered")
    func predictor() async throws {
        let run = try await FuzzRun(service: "predictor", outputs: ["guardian/predictions/+", "guardian/predictor/responses/#"])
        let models = TestBroker.repositoryRoot.appendingPathComponent("Models").path
        let service = try PredictorService(config: try run.config(["GUARDIAN_MODELS_DIR": models]), logger: .quiet)
        try await run.start { try await service.run() }

        let base = Timestamp(rfc3339: "2026-11-18T06:00:00Z")!
        var budgets: [Double] = []  // the valid budgets, in the order sent
        var triggers: [String: Int] = [:]  // prediction id → how many budgets were sent before its trigger
        var requests: [String] = []
        func trigger(_ n: Int) async {
            let id = "ok-\(n)"
            let event = HJSON.object([
                ("id", .string(id)), ("ts", .string(base.adding(seconds: Double(n * 60)).rfc3339)), ("deviceId", .string("fuzz-ok")),
                ("type", .string(n % 2 == 0 ? "enter" : "dwell")), ("zoneId", .string("fz")), ("zoneName", .string("Fuzz Zone")),
                ("distance", .number(40)), ("dwellSeconds", .number(n % 2 == 0 ? 0 : 360)),
                ("location", .object([("lat", .number(48.85)), ("lon", .number(2.35))])), ("source", .string("server")),
            ])
            triggers[id] = budgets.count
            await run.sendValid("guardian/geofence/fuzz-ok", event.data)
        }

        await run.flood(seed: 0x9_4ED1C7, oversizedTopic: "guardian/geofence/fz-1") { rng in
            PredictorHostility.topics.bad(&rng)
        } valid: { n, rng in
            switch n % 3 {
            case 0:
                let utilization = (rng.double(0...1) * 100).rounded() / 100
                let event = eventJSON(id: "b-\(n)", deviceId: "fuzz-ok", ts: base.adding(seconds: Double(n * 60)), [("utilization", .number(utilization))])
                budgets.append(utilization)
                await run.sendValid("guardian/events/fuzz-ok/budget", event.data)
            case 1:
                await trigger(n)
            default:
                let reply = "guardian/predictor/responses/fuzz/ok-\(n)"
                requests.append(reply)
                let request = HJSON.object([("features", PredictorHostility.validFeatures(&rng)), ("replyTo", .string(reply))])
                await run.sendValid("guardian/predictor/requests", request.data)
            }
        }

        await run.checkReports()

        // Every valid trigger got its prediction, with the latest valid budget; every request its answer.
        // The latest when the predictor handles it: a trigger is handled at the end of the network turn
        // that read it (up to 1,000 messages), after a budget read later in that turn. Valid budgets are
        // about 1,500 messages apart, so that is the one sent before the trigger or the next one.
        let wanted = triggers.count + requests.count
        await run.waitForOutputs { $0.count >= wanted }
        #expect(run.outputMessages.count == wanted, "\(run.outputMessages.count) outputs for \(wanted) valid triggers and requests")
        let predictions = run.outputs(on: "guardian/predictions/fuzz-ok").compactMap(\.json)
        for (id, sentBefore) in triggers {
            let matches = predictions.filter { $0["id"] as? String == id }
            #expect(matches.count == 1, "prediction \(id) arrived \(matches.count) times")
            guard let prediction = matches.first, let features = prediction["features"] as? [String: Any] else { continue }
            #expect(prediction["deviceId"] as? String == "fuzz-ok" && prediction["zoneId"] as? String == "fz")
            let latest: Double? = sentBefore > 0 ? budgets[sentBefore - 1] : nil
            let next: Double? = budgets.indices.contains(sentBefore) ? budgets[sentBefore] : nil
            let used = features["budgetUtilization"] as? Double
            let defaulted = ((prediction["defaulted"] as? [String]) ?? []).contains("budgetUtilization")
            let expected = defaulted ? (latest == nil && used == 0.75) : (used != nil && (used == latest || used == next))
            #expect(expected, "prediction \(id) used budget \(String(describing: used)) (defaulted: \(defaulted)); sent before it: \(String(describing: latest)), next: \(String(describing: next))")
        }
        for topic in requests {
            let answers = run.outputs(on: topic).compactMap(\.json)
            #expect(answers.count == 1, "\(topic) answered \(answers.count) times")
            if let answer = answers.first, let probability = answer["probability"] as? Double {
                #expect((0...1).contains(probability) && answer["shouldNudge"] as? Bool == (probability >= 0.7) && answer["modelType"] as? String == "xgboost")
            }
        }

        // Still alive: online, and one more trigger is predicted.
        await run.checkAlive()
        await trigger(1_000_001)
        #expect(await run.waitForOutputs { $0.contains { $0.json?["id"] as? String == "ok-1000001" } })
        print(run.summary)
        await run.shutdown()
    }
}
