import Foundation
import GuardianShared
import MCP

/// The four tools an assistant gets, with JSON schemas for their arguments, each acting as the
/// configured parent over the bus.
public struct GuardianTools: Sendable {
    let bridge: ParentBridge

    public init(bridge: ParentBridge) { self.bridge = bridge }

    public static let definitions: [Tool] = [
        Tool(
            name: "send_restriction_command",
            description: "Send a parental-control command for a child: natural language (e.g. \"Block all games for 2 hours\") or a structured command. Accepted: the router's reply as JSON, with a summary of what is now in force. Refused: an error, \"Not done: <reason> (asked: <summary>)\". Unclear: \"Question for the parent …\" (not an error; nothing was done yet): ask the parent and send their answer.",
            inputSchema: .object([
                "type": "object",
                "properties": .object([
                    "text": .object(["type": "string", "description": "The parent's words."]),
                    "command": .object([
                        "type": "object",
                        "description": "A structured command: {action: shutdown|warning|allow|extend|block_app|schedule, durationSeconds?, apps?, categories?, message?, until?, condition?, schedule?}. shutdown blocks everything (or the categories named), block_app the apps named, allow lifts restrictions, warning sends the child `message`; extend is more time for the child (the current limit is lifted for `durationSeconds` or until `until`), never a longer block: to block for longer, send shutdown or block_app again.",
                        "properties": .object([
                            "action": .object(["type": "string", "enum": .array(["shutdown", "warning", "allow", "extend", "block_app", "schedule"])]),
                            "durationSeconds": .object(["type": "integer", "minimum": 1]),
                            "apps": .object(["type": "array", "items": .object(["type": "string"])]),
                            "categories": .object(["type": "array", "items": .object(["type": "string", "enum": .array(["games", "social", "video", "education", "other"])])]),
                            "message": .object(["type": "string"]),
                            "until": .object(["type": "string", "description": "RFC 3339"]),
                        ]),
                        "required": .array(["action"]),
                    ]),
                    "child": .object(["type": "string", "description": "The child's name or device id; optional with one child."]),
                ]),
            ])),
        Tool(
            name: "get_device_status",
            description: "A child's device: its last status message, the restrictions in force and the latest command.",
            inputSchema: .object([
                "type": "object", "properties": .object(["child": .object(["type": "string", "description": "Name or device id."])]),
            ]),
            annotations: .init(readOnlyHint: true)),
        Tool(
            name: "check_child_activity",
            description: "Time a child spent per app and per category since a given time (default: the last 24 hours), with current restrictions.",
            inputSchema: .object([
                "type": "object",
                "properties": .object([
                    "child": .object(["type": "string"]), "since": .object(["type": "string", "description": "RFC 3339"]),
                ]),
            ]),
            annotations: .init(readOnlyHint: true)),
        Tool(
            name: "schedule_timed_restriction",
            description: "A recurring or one-off window on the child's local clock: bedtime (everything blocked), educational (education apps only) or social_only.",
            inputSchema: .object([
                "type": "object",
                "properties": .object([
                    "child": .object(["type": "string"]),
                    "type": .object(["type": "string", "enum": .array(["bedtime", "educational", "social_only"])]),
                    "start": .object(["type": "string", "pattern": "^[0-2][0-9]:[0-5][0-9]$", "description": "Local HH:MM."]),
                    "end": .object(["type": "string", "pattern": "^[0-2][0-9]:[0-5][0-9]$", "description": "Local HH:MM; earlier than start means overnight."]),
                    "repeat": .object(["type": "string", "enum": .array(["none", "daily", "weekdays", "weekends"])]),
                ]),
                "required": .array(["type", "start", "end"]),
            ])),
    ]

    /// Runs a tool; failures come back as an error result the assistant can read.
    public func call(_ name: String, arguments: [String: Value]?) async -> CallTool.Result {
        do {
            let answer = try await run(name, arguments ?? [:])
            return .init(content: [.text(text: answer, annotations: nil, _meta: nil)], isError: false)
        } catch {
            return .init(content: [.text(text: "\(error)", annotations: nil, _meta: nil)], isError: true)
        }
    }

    func run(_ name: String, _ arguments: [String: Value]) async throws -> String {
        let child = arguments["child"]?.stringValue
        switch name {
        case "send_restriction_command":
            let text = arguments["text"]?.stringValue
            let command = try arguments["command"].map { try JSONDecoder().decode(JSONObject.self, from: JSONEncoder().encode($0)) }
            guard text != nil || command != nil else { throw BridgeError.invalidArguments("give text or command") }
            return try answer(to: try await bridge.send(text: text, command: command, child: child))
        case "get_device_status":
            return render(try await bridge.status(of: try await bridge.child(child)))
        case "check_child_activity":
            let since = try arguments["since"]?.stringValue.map { text throws(BridgeError) in try Self.since(text) }
            return render(try await bridge.activity(of: try await bridge.child(child), since: since))
        case "schedule_timed_restriction":
            guard let type = arguments["type"]?.stringValue, let start = arguments["start"]?.stringValue, let end = arguments["end"]?.stringValue else {
                throw BridgeError.invalidArguments("type, start and end are required")
            }
            let schedule: [String: JSONObject] = [
                "type": .string(type), "start": .string(start), "end": .string(end), "repeat": .string(arguments["repeat"]?.stringValue ?? "none"),
            ]
            let command: JSONObject = .object(["action": .string("schedule"), "schedule": .object(schedule)])
            return try answer(to: try await bridge.send(text: nil, command: command, child: child))
        default:
            throw BridgeError.invalidArguments("unknown tool \(name)")
        }
    }

    /// The router's reply as an assistant reads it: accepted, the reply itself; rejected, an error
    /// with the reason first; a clarifying question, said to be one for the parent.
    func answer(to reply: CommandReply) throws(BridgeError) -> String {
        switch reply.status {
        case .accepted: return render(reply)
        case .rejected: throw .refused(reason: reply.reason ?? "the command-router refused it", asked: reply.summary)
        case .clarify:
            return "Question for the parent (nothing was done yet): \(reply.summary) Send their answer with send_restriction_command."
        }
    }

    /// `since` read as the command-router reads it (RFC 3339 or epoch seconds, between 2000 and
    /// 2200): a time it would refuse, and leave unanswered, is refused here at once with its reason.
    static func since(_ text: String) throws(BridgeError) -> Timestamp {
        struct Request: Decodable { var since: Timestamp }
        do {
            return try JSONDecoder().decode(Request.self, from: GuardianJSON.encode(["since": text])).since
        } catch {
            throw .invalidArguments(ContractViolation.from(error).description)
        }
    }

    private func render(_ value: some Encodable) -> String {
        String(decoding: GuardianJSON.encode(value), as: UTF8.self)
    }
}
