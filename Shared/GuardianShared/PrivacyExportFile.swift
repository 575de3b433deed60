import Foundation

/// An export as one readable file: who asked, when, what each instance holds about the device,
/// and which instances refused or did not answer (`guardian export`, the console's download).
public struct PrivacyExportFile: Encodable, Sendable {
    public struct Answer: Encodable, Sendable {
        public var service: String
        public var instance: String
        public var ts: Timestamp
        public var data: [String: JSONObject]
    }

    public var deviceId: String
    public var requestId: String
    public var requestedBy: String
    public var exportedAt: Timestamp
    public var answers: [Answer]
    public var refused: [String: String]
    public var notAnswered: [String]

    public init(_ outcome: PrivacyExchange.Outcome, exportedAt: Timestamp = .now()) {
        let name = { (instance: PrivacyExchange.Instance) in "\(instance.service)/\(instance.instance)" }
        deviceId = outcome.request.deviceId
        requestId = outcome.request.id
        requestedBy = outcome.requester
        self.exportedAt = exportedAt
        answers = outcome.exports.sorted { $0.key < $1.key }.map {
            Answer(service: $0.key.service, instance: $0.key.instance, ts: $0.value.ts, data: $0.value.data)
        }
        refused = Dictionary(outcome.refused.map { (name($0), outcome.receipts[$0]?.reason ?? "") }, uniquingKeysWith: { a, _ in a })
        notAnswered = outcome.expected.filter { outcome.exports[$0] == nil && outcome.receipts[$0]?.status != .refused }.sorted().map(name)
    }

    /// Pretty-printed JSON, as written to disk.
    public func encoded() throws -> Data {
        let encoder = GuardianJSON.encoder()
        encoder.outputFormatting.insert(.prettyPrinted)
        return try encoder.encode(self)
    }
}
