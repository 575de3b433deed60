import GuardianShared

/// An on-demand request on `guardian/predictor/requests`: `{features, replyTo?}`. The answer goes to
/// the MQTT 5 response topic (with the correlation data), or to `replyTo`.
struct PredictionRequest: Decodable, Sendable {
    var features: PurchaseFeatures
    var replyTo: String?

    enum CodingKeys: String, CodingKey { case features, replyTo }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        features = try c.decode(PurchaseFeatures.self, forKey: .features)
        replyTo = try c.optionalText(.replyTo, maxLength: 256)
        if let replyTo, replyTo.contains("+") || replyTo.contains("#") || replyTo.hasPrefix("$") {
            throw ContractViolation(field: "replyTo", "must be a topic without wildcards")
        }
    }
}

/// The answer to a `PredictionRequest`.
struct PredictionResponse: Codable, Sendable, Equatable {
    var probability: Double
    var shouldNudge: Bool
    var riskLevel: RiskLevel
    var threshold: Double
    var modelType = "xgboost"
}
