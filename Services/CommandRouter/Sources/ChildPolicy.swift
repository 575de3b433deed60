import Foundation
import GuardianShared

/// Everything a child's device must enforce now: `guardian/children/{deviceId}/policy` (retained).
public struct ChildPolicy: Codable, Sendable, Equatable {
    /// One thing the device enforces: `kind` is `shutdown` (everything, or the listed apps and
    /// categories), `block_app`, or a schedule's `bedtime`, `educational`, `social_only`.
    public struct Restriction: Codable, Sendable, Equatable {
        public var id: String
        public var kind: String
        public var apps: [String]?
        public var categories: [String]?
        public var from: Timestamp?
        public var until: Timestamp?
        public var message: String?
        public var commandId: String
    }

    public var version: Int
    public var updatedAt: Timestamp
    public var restrictions: [Restriction]
}

/// The latest command for a child: `guardian/children/{deviceId}/command` (retained).
public struct ChildCommandMessage: Codable, Sendable, Equatable {
    public var id: String
    public var issuedAt: Timestamp
    public var issuedBy: String
    public var command: ParentCommand
    public var expiresAt: Timestamp?
}

/// A parent's message on `guardian/parents/{userId}/commands`: `{id, text?, command?, child?}`.
public struct ParentRequest: Decodable, Sendable {
    public var id: String
    public var text: String?
    public var command: ParentCommand?
    public var child: String?

    enum CodingKeys: String, CodingKey { case id, text, command, child }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.text(.id, maxLength: 128)
        guard Identifier.isValidEventId(id) else { throw ContractViolation(field: "id", "must be 1-128 characters of [A-Za-z0-9_.:-]") }
        text = try c.optionalText(.text, maxLength: BuiltInInterpreter.maxTextLength)
        command = try c.decodeIfPresent(ParentCommand.self, forKey: .command)
        child = try c.optionalText(.child, maxLength: 64)
        guard text != nil || command != nil else { throw ContractViolation(path: c.codingPath, "needs text or command") }
        // Which would win is anybody's guess: the parent's words and a command may disagree.
        guard text == nil || command == nil else { throw ContractViolation(path: c.codingPath, "takes text or command, not both") }
    }
}
