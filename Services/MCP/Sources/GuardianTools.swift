import Foundation
import GuardianShared
import MCP

/// The four tools an assistant gets, with JSON schemas for their arguments, each acting as the
/// configured parent over the bus.
public struct GuardianTools: Sendable {
    let bridge: ParentBridge

    public init(bridge: ParentBridge) { self.bridge = bridge }

    /// Runs a tool; failures come back as an error result the assistant can read.
    public func call(_ name: String, arguments: [String: Value]?) async -> CallTool.Result {
        do {
            let answer = try await run(name, ToolArguments(arguments))
            return .init(content: [.text(text: answer, annotations: nil, _meta: nil)], isError: false)
        } catch {
            return .init(content: [.text(text: "\(error)", annotations: nil, _meta: nil)], isError: true)
        }
    }

    func run(_ name: String, _ arguments: ToolArguments) async throws -> String {
        let child = try arguments.string("child", expected: "a string (the child's name or device id)")
        switch name {
        case "send_restriction_command":
            let text = try arguments.string("text")
            let command = try arguments.object("command").map { try JSONDecoder().decode(JSONObject.self, from: JSONEncoder().encode($0)) }
            guard text != nil || command != nil else { throw BridgeError.invalidArguments("give text or command") }
            // The router would act on the command alone and drop the words: the parent may have meant either.
            guard text == nil || command == nil else { throw BridgeError.invalidArguments("give text or command, not both") }
            return try answer(to: try await bridge.send(text: text, command: command, child: try await deviceId(of: child)))
        case "get_device_status":
            return render(try await bridge.status(of: try await bridge.child(child)))
        case "check_child_activity":
            let since = try arguments.string("since", expected: "an RFC 3339 string").map { text throws(BridgeError) in try Self.since(text) }
            return render(try await bridge.activity(of: try await bridge.child(child), since: since))
        case "schedule_timed_restriction":
            let (type, start, end) = (try arguments.string("type"), try arguments.string("start"), try arguments.string("end"))
            let repeats = try arguments.string("repeat") ?? "none"
            guard let type, let start, let end else { throw BridgeError.invalidArguments("type, start and end are required") }
            let schedule: [String: JSONObject] = ["type": .string(type), "start": .string(start), "end": .string(end), "repeat": .string(repeats)]
            let command: JSONObject = .object(["action": .string("schedule"), "schedule": .object(schedule)])
            return try answer(to: try await bridge.send(text: nil, command: command, child: try await deviceId(of: child)))
        default:
            throw BridgeError.invalidArguments("unknown tool \(ToolArguments.shown(name))")
        }
    }

    /// The device id of the child named, checked against the family here (so that an unknown name
    /// gets the same answer as from the other tools); nil leaves the choice to the router.
    private func deviceId(of child: String?) async throws(BridgeError) -> String? {
        guard let child else { return nil }
        return try await bridge.child(child).deviceId
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
