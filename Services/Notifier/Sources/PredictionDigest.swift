import GuardianShared

/// The part of a prediction the notifier reads (the rest of the payload is skipped, not validated).
struct PredictionDigest: Decodable, Equatable, Sendable {
    var id: String
    var deviceId: String
    var zoneId: String
    var merchant: String?
    var probability: Double
    var threshold: Double
    var riskLevel: RiskLevel
    /// `ts` as sent, read only when the device was erased (to drop what predates the erase).
    var tsText: String?

    var ts: Timestamp? { tsText.flatMap { Timestamp(rfc3339: $0) } }

    enum CodingKeys: String, CodingKey { case id, deviceId, zoneId, merchant, probability, threshold, riskLevel, ts }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.text(.id, maxLength: 128)
        deviceId = try c.decode(String.self, forKey: .deviceId)
        zoneId = try c.decode(String.self, forKey: .zoneId)
        try Identifier.validate(zoneId, field: "zoneId")
        merchant = try c.optionalText(.merchant, maxLength: 128)
        probability = try c.number(.probability, in: 0...1)
        threshold = try c.number(.threshold, in: 0...1)
        riskLevel = try c.decode(RiskLevel.self, forKey: .riskLevel)
        tsText = try? c.decodeIfPresent(String.self, forKey: .ts)
    }
}
