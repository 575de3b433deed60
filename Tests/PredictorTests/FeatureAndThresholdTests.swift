import Foundation
@testable import GuardianPredictor
import GuardianShared
import Testing

@Suite("features, thresholds and model updates")
struct FeatureAndThresholdTests {
    func event(at text: String, device: String = "d1", zone: String = "z1", distance: Double = 120, dwell: Double = 0) -> GeofenceEvent {
        GeofenceEvent(
            id: "e", ts: Timestamp(rfc3339: text)!, deviceId: device, type: .enter, zoneId: zone, zoneName: "Z", merchant: nil,
            distance: distance, dwellSeconds: dwell, location: .init(lat: 0, lon: 0), source: .server)
    }

    @Test("local hour and weekend come from the device's time zone; unknown context is defaulted and listed")
    func features() {
        var context = DeviceContext()
        // Sunday 23:30 UTC is Monday 08:30 in Tokyo and Sunday 18:30 in New York.
        let sundayNight = "2026-11-22T23:30:00Z"
        let (utc, utcDefaults) = context.features(for: event(at: sundayNight, distance: 1500, dwell: 330))
        #expect(utc == PurchaseFeatures(distanceToMerchant: 1.5, hourOfDay: 23, isWeekend: 1, budgetUtilization: 0.75, merchantRegretRate: 0.5, dwellTime: 5.5))
        #expect(utcDefaults == ["budgetUtilization", "merchantRegretRate"])
        context.timeZones["d1"] = TimeZone(identifier: "Asia/Tokyo")
        context.budgets["d1"] = (0.42, Timestamp(milliseconds: 0))
        context.regretRates["z1"] = 0.8
        let (tokyo, tokyoDefaults) = context.features(for: event(at: sundayNight))
        #expect(tokyo.hourOfDay == 8 && tokyo.isWeekend == 0 && tokyo.budgetUtilization == 0.42 && tokyo.merchantRegretRate == 0.8)
        #expect(tokyoDefaults.isEmpty)
        context.timeZones["d1"] = TimeZone(identifier: "America/New_York")
        let (newYork, _) = context.features(for: event(at: sundayNight))
        #expect(newYork.hourOfDay == 18 && newYork.isWeekend == 1)
        // Saturday 00:10 local in Paris is still Friday 23:10 UTC.
        context.timeZones["d1"] = TimeZone(identifier: "Europe/Paris")
        let (paris, _) = context.features(for: event(at: "2026-11-20T23:10:00Z"))
        #expect(paris.hourOfDay == 0 && paris.isWeekend == 1)
    }

    @Test("risk levels and the nudge threshold at their boundaries")
    func boundaries() {
        #expect(RiskLevel(probability: 0.85) == .high)
        #expect(RiskLevel(probability: 0.8499999) == .medium)
        #expect(RiskLevel(probability: 0.70) == .medium)
        #expect(RiskLevel(probability: 0.6999999) == .low)
        let info = Prediction.ModelInfo(name: "m", version: "1", sha256: "x")
        let features = PurchaseFeatures(distanceToMerchant: 0, hourOfDay: 0, isWeekend: 0, budgetUtilization: 0, merchantRegretRate: 0, dwellTime: 0)
        func prediction(_ p: Double) -> Prediction {
            Prediction(id: "i", ts: .now(), deviceId: "d", zoneId: "z", merchant: nil, trigger: .enter, features: features, defaulted: [], probability: p, threshold: 0.70, model: info)
        }
        #expect(prediction(0.70).shouldNudge && !prediction(0.6999999).shouldNudge)
    }

    @Test("request features: an object with the six names or an array in the model's order; ranges enforced")
    func requestFeatures() throws {
        let decoder = JSONDecoder()
        let array = try decoder.decode(PredictionRequest.self, from: Data(#"{"features": [0.1, 22, 1, 0.9, 0.8, 10]}"#.utf8))
        let object = try decoder.decode(
            PredictionRequest.self,
            from: Data(#"{"features": {"distanceToMerchant": 0.1, "hourOfDay": 22, "isWeekend": 1, "budgetUtilization": 0.9, "merchantRegretRate": 0.8, "dwellTime": 10}, "replyTo": "guardian/predictor/responses/cli/1"}"#.utf8))
        #expect(array.features == object.features && object.replyTo == "guardian/predictor/responses/cli/1")
        for bad in [#"{"features": [1, 2, 3]}"#, #"{"features": [0.1, 25, 1, 0.9, 0.8, 10]}"#, #"{"features": [0.1, 22, 1, 0.9, 0.8, 10], "replyTo": "a/#"}"#, #"{}"#] {
            #expect(throws: (any Error).self, "\(bad)") { try decoder.decode(PredictionRequest.self, from: Data(bad.utf8)) }
        }
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static func file(_ path: String) throws -> Data { try Data(contentsOf: root.appendingPathComponent(path)) }

    @Test("a model update is checked: checksum over the model as sent, vectors, objective and features")
    func modelUpdates() throws {
        let model = try Self.file("Models/test-models/missing-values/model.json")
        let vectors = try Self.file("Models/test-models/missing-values/vectors.json")
        let modelText = String(decoding: model, as: UTF8.self)
        let sha = SHA256.hex(model)
        func message(_ body: String) -> Data { Data(body.utf8) }
        // The model as an object, with the checksum of those bytes and XGBoost's vectors.
        let object = try ModelUpdate(message: message(#"{"version": "2", "sha256": "\#(sha)", "model": \#(modelText), "vectors": \#(String(decoding: vectors, as: UTF8.self))}"#))
        #expect(object.version == "2" && object.sha256 == sha)
        // The model as the file's text.
        let asString = String(decoding: try JSONEncoder().encode(modelText), as: UTF8.self)
        #expect(try ModelUpdate(message: message(#"{"version": "3", "sha256": "\#(sha)", "model": \#(asString)}"#)).sha256 == sha)
        #expect(throws: ModelUpdateError.checksumMismatch(expected: String(repeating: "0", count: 64), actual: sha)) {
            try ModelUpdate(message: message(#"{"version": "4", "sha256": "\#(String(repeating: "0", count: 64))", "model": \#(modelText)}"#))
        }
        let wrongVectors = try Self.file("Models/purchase-predictor/vectors.json")
        #expect(throws: ModelUpdateError.self) {
            try ModelUpdate(message: message(#"{"version": "5", "model": \#(modelText), "vectors": \#(String(decoding: wrongVectors, as: UTF8.self))}"#))
        }
        let regression = modelText.replacingOccurrences(of: "binary:logistic", with: "reg:squarederror")
        #expect(throws: ModelUpdateError.self) { try ModelUpdate(message: message(#"{"version": "6", "model": \#(regression)}"#)) }
        #expect(throws: ModelUpdateError.self) { try ModelUpdate(message: message(#"{"version": "7", "model": {"learner": 1}}"#)) }
        #expect(throws: ModelUpdateError.self) { try ModelUpdate(message: message(#"{"model": \#(modelText)}"#)) }
        #expect(throws: ModelUpdateError.self) { try ModelUpdate(message: message("garbage")) }
    }

    @Test("JSONSpan returns a member's bytes exactly as written")
    func spans() {
        let json = Data(#"{"a": "x\"}y", "model" : {"k": [1, {"z": "}"}]} , "b": 2}"#.utf8)
        #expect(JSONSpan.rawValue(of: "model", in: json).map { String(decoding: $0, as: UTF8.self) } == #"{"k": [1, {"z": "}"}]}"#)
        #expect(JSONSpan.rawValue(of: "b", in: json).map { String(decoding: $0, as: UTF8.self) } == "2")
        #expect(JSONSpan.rawValue(of: "missing", in: json) == nil)
        #expect(JSONSpan.rawValue(of: "a", in: Data("[1]".utf8)) == nil)
        #expect(JSONSpan.rawValue(of: "a", in: Data(#"{"a": {"#.utf8)) == nil)
    }
}
