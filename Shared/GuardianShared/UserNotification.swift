/// What the notifier delivers on `guardian/notifications/{recipientId}`.
public struct UserNotification: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable, CaseIterable { case spendingNudge = "spending_nudge", restriction, warning, status, commandReply = "command_reply" }
    public enum Priority: String, Codable, Sendable, CaseIterable { case low, normal, high }

    /// Derived from the source event, so a retry never notifies twice.
    public var id: String
    public var ts: Timestamp
    public var kind: Kind
    public var title: String
    public var body: String
    public var priority: Priority
    public var data: [String: JSONObject]

    public init(id: String, ts: Timestamp, kind: Kind, title: String, body: String, priority: Priority, data: [String: JSONObject]) {
        self.id = id
        self.ts = ts
        self.kind = kind
        self.title = title
        self.body = body
        self.priority = priority
        self.data = data
    }
}
