import Foundation
import GuardianShared

extension PredictionDigest {
    static let scannedKeys: [StaticString] = ["id", "deviceId", "zoneId", "merchant", "probability", "threshold", "riskLevel", "ts"]

    /// The digest of a plain, valid prediction, read without `JSONDecoder` (the notifier's hottest
    /// path); nil whenever the decoder must look: then it decides, with the same rules, and words
    /// any error.
    init?(scanning payload: Data) {
        guard let values = JSONFieldScanner.scan(payload, for: Self.scannedKeys),
            case .string(let id)? = values[0], ContractText.problem(id, maxLength: 128) == nil,
            case .string(let deviceId)? = values[1],
            case .string(let zoneId)? = values[2], Identifier.isValid(zoneId),
            case .number(let probability)? = values[4], (0...1).contains(probability),
            case .number(let threshold)? = values[5], (0...1).contains(threshold),
            case .string(let risk)? = values[6], let riskLevel = RiskLevel(rawValue: risk)
        else { return nil }
        switch values[3] {
        case nil: merchant = nil
        case .string(let name)? where ContractText.problem(name, maxLength: 128) == nil: merchant = name
        default: return nil
        }
        self.id = id
        self.deviceId = deviceId
        self.zoneId = zoneId
        self.probability = probability
        self.threshold = threshold
        self.riskLevel = riskLevel
        if case .string(let ts)? = values[7] { tsText = ts }
    }
}
