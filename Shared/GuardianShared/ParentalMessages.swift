/// The command-router's answer to a parent: `guardian/parents/{userId}/replies`.
public struct CommandReply: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable, CaseIterable { case accepted, rejected, clarify }

    public var commandId: String
    public var status: Status
    public var command: JSONObject?
    public var summary: String
    public var reason: String?

    public init(commandId: String, status: Status, command: JSONObject? = nil, summary: String, reason: String? = nil) {
        self.commandId = commandId
        self.status = status
        self.command = command
        self.summary = summary
        self.reason = reason
    }
}

/// What a child's device reports: `guardian/children/{deviceId}/status` (retained).
public struct ChildStatus: Codable, Sendable, Equatable {
    public var ts: Timestamp
    public var message: String
    public var policyVersion: Int?
    public var blockedApps: [String]?

    public init(ts: Timestamp, message: String, policyVersion: Int? = nil, blockedApps: [String]? = nil) {
        self.ts = ts
        self.message = message
        self.policyVersion = policyVersion
        self.blockedApps = blockedApps
    }

    enum CodingKeys: String, CodingKey { case ts, message, policyVersion, blockedApps }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        ts = try c.decode(Timestamp.self, forKey: .ts)
        message = try c.text(.message, maxLength: 500)
        policyVersion = try c.optionalCount(.policyVersion)
        blockedApps = try c.decodeIfPresent([String].self, forKey: .blockedApps)
    }
}

/// A child's device confirming (or failing) a command: `guardian/children/{deviceId}/ack`.
public struct CommandAck: Codable, Sendable, Equatable {
    public var commandId: String
    public var ok: Bool
    public var error: String?

    public init(commandId: String, ok: Bool, error: String? = nil) {
        self.commandId = commandId
        self.ok = ok
        self.error = error
    }

    enum CodingKeys: String, CodingKey { case commandId, ok, error }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        commandId = try c.text(.commandId, maxLength: 128)
        ok = try c.decode(Bool.self, forKey: .ok)
        error = try c.optionalText(.error, maxLength: 500)
    }
}
