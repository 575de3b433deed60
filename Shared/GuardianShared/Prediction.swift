/// A purchase-regret prediction: `guardian/predictions/{deviceId}`, and `guardian/nudges/{deviceId}`
/// when `shouldNudge`.
public struct Prediction: Codable, Sendable, Equatable {
    public enum Trigger: String, Codable, Sendable, CaseIterable { case enter, dwell }

    public struct ModelInfo: Codable, Sendable, Equatable {
        public var name: String
        public var version: String
        public var sha256: String
        public init(name: String, version: String, sha256: String) {
            self.name = name
            self.version = version
            self.sha256 = sha256
        }
    }

    public var id: String
    public var ts: Timestamp
    public var deviceId: String
    public var zoneId: String
    public var merchant: String?
    public var trigger: Trigger
    public var features: PurchaseFeatures
    /// Features that fell back to a default because the context was unknown.
    public var defaulted: [String]
    public var probability: Double
    public var shouldNudge: Bool
    public var riskLevel: RiskLevel
    public var threshold: Double
    public var model: ModelInfo

    public init(
        id: String, ts: Timestamp, deviceId: String, zoneId: String, merchant: String?, trigger: Trigger, features: PurchaseFeatures,
        defaulted: [String], probability: Double, threshold: Double, model: ModelInfo
    ) {
        self.id = id
        self.ts = ts
        self.deviceId = deviceId
        self.zoneId = zoneId
        self.merchant = merchant
        self.trigger = trigger
        self.features = features
        self.defaulted = defaulted
        self.probability = probability
        self.shouldNudge = probability >= threshold
        self.riskLevel = RiskLevel(probability: probability)
        self.threshold = threshold
        self.model = model
    }
}
