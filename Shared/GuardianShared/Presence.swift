/// What each running instance keeps retained on `guardian/services/{service}/{instanceId}`.
public struct Presence: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable { case online, offline }

    public var status: Status
    public var ts: Timestamp
    public var version: String
    public var startedAt: Timestamp
    public var stats: [String: Int]
    /// `k/n` for an instance that owns only some devices (`GUARDIAN_SHARD`), so a client knows
    /// which instance answers for a device.
    public var shard: String?

    public init(status: Status, ts: Timestamp, version: String, startedAt: Timestamp, stats: [String: Int], shard: String? = nil) {
        self.status = status
        self.ts = ts
        self.version = version
        self.startedAt = startedAt
        self.stats = stats
        self.shard = shard
    }
}

/// The version every executable reports.
public enum GuardianVersion {
    public static let current = "0.1.0"
}
