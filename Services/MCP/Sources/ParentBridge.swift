import Foundation
import GuardianShared
import Logging
import MQTT
import Synchronization

/// One configured parent's view of the bus, for an assistant: send commands and wait for the
/// router's reply, read a child's retained status and policy, ask for activity.
public final class ParentBridge: Sendable {
    public let parent: String
    let client: MQTTClient
    let topics: Topics
    let families = Mutex(FamilyView())
    /// Sends commands and activity requests, each on a connection of its own.
    let publisher: CommandPublisher
    let timeout: Duration

    /// Connects as the `guardian-mcp` user (or `GUARDIAN_MQTT_USERNAME`) for the parent `GUARDIAN_MCP_PARENT`.
    public init(config: GuardianConfig, logger: Logger, timeout: Duration = .seconds(10)) async throws {
        parent = try MCPSettings(settings: config.settings).parent
        var mqtt = try config.mqttConfiguration(service: "guardian-mcp", will: nil)
        mqtt.clientId = "guardian-mcp-\(parent)-\(UUID().uuidString.prefix(8))"
        mqtt.cleanStart = true
        mqtt.sessionExpirySeconds = 0
        client = try MQTTClient(configuration: mqtt, logger: logger)
        topics = Topics(prefix: config.topicPrefix)
        publisher = CommandPublisher(configuration: mqtt, limit: timeout, logger: logger)
        self.timeout = timeout
        try await client.subscribe("\(topics.prefix)/families/+") { [self] in handleFamily($0) }
        try await client.connect(timeout: .seconds(10))
    }

    public func close() async { await client.shutdown() }

    private func handleFamily(_ message: MQTTMessage) {
        guard let levels = topics.levels(of: message.topic), levels.count == 2 else { return }
        let family = message.payload.isEmpty ? nil : try? JSONDecoder().decodePayload(Family.self, from: message.payload)
        // Runs on the network thread, on the connection that brought it.
        let connection = client.statistics.connects
        families.withLock { $0.set(family, id: String(levels[1]), on: connection) }
    }

    /// The parent's children, by name and device id, as received so far.
    public var children: [Family.Child] { families.withLock { $0.directory.children(of: parent) } }

    /// Waits until every family the broker holds has arrived on the connection now up (the
    /// retained burst that follows connecting; at most `timeout`) and returns that connection.
    /// Throws `.brokerUnreachable(consequence)` while the connection is down.
    func ready(_ consequence: String) async throws(BridgeError) -> Int {
        guard let connection else { throw .brokerUnreachable(consequence) }
        if families.withLock({ $0.isComplete(on: connection) }) { return connection }
        let up: @Sendable () -> Bool = { [self] in isUp(connection) }
        // A subscription's acknowledgement comes after the retained messages of those sent before it on
        // the connection. The first barrier's is read once the connect's own subscriptions (families/+
        // among them) were sent, so the second barrier, sent after it, is acknowledged after every family.
        for _ in 0..<2 {
            let barrier = "\(topics.prefix)/parents/\(parent)/barrier/\(UUID().uuidString.prefix(12))"
            try await Inbox.open(barrier, on: client, while: up, limit: timeout, consequence: consequence).close()
        }
        guard up() else { throw .brokerUnreachable(consequence) }
        families.withLock { $0.markComplete(on: connection) }
        return connection
    }

    /// A child of this parent by name or device id (the only child when `name` is nil), once every
    /// family has arrived.
    public func child(_ name: String?) async throws(BridgeError) -> Family.Child {
        _ = try await ready("your family cannot be read now")
        let mine = children
        if let name {
            if let child = mine.first(where: { $0.deviceId == name || $0.name.lowercased() == name.lowercased() }) { return child }
            throw .unknownChild(name, known: mine.map(\.name))
        }
        guard mine.count == 1 else { throw .whichChild(mine.map(\.name)) }
        return mine[0]
    }

    /// Sends `{id, text?, command?, child?}` as the parent and returns the router's reply. Throws
    /// `.brokerUnreachable` at once, with nothing sent, while the connection is down.
    public func send(text: String?, command: JSONObject?, child: String?) async throws(BridgeError) -> CommandReply {
        let notSent = "nothing was sent"
        guard let connection else { throw .brokerUnreachable(notSent) }
        let up: @Sendable () -> Bool = { [self] in isUp(connection) }
        let id = "mcp-\(UUID().uuidString.prefix(12))"
        var body: [String: JSONObject] = ["id": .string(id)]
        if let text { body["text"] = .string(text) }
        if let command { body["command"] = command }
        if let child { body["child"] = .string(child) }
        let replies = try await Inbox.open("\(topics.prefix)/parents/\(parent)/replies", on: client, while: up, limit: timeout, consequence: notSent)
        defer { replies.close() }
        try await publisher.publish(MQTTOutgoing(topic: "\(topics.prefix)/parents/\(parent)/commands", payload: GuardianJSON.encode(body)))
        return try await whileConnected(
            up, limit: timeout,
            lost: .brokerUnreachable(
                "the connection was lost after the command was sent, before the command-router replied: it may have been applied; check with get_device_status once the broker is back"),
            late: .noAnswer("the command-router did not reply within \(timeout): the command reached the broker and may still be applied; check with get_device_status")
        ) { () throws(BridgeError) -> CommandReply in
            let reply = await replies.first { message in
                (try? JSONDecoder().decodePayload(CommandReply.self, from: message.payload)).flatMap { $0.commandId == id ? $0 : nil }
            }
            guard let reply else { throw .noAnswer("the command-router did not reply") }
            return reply
        }
    }

    /// The connection now up, as the number of connections the client has made; nil while disconnected.
    var connection: Int? {
        let count = client.statistics.connects
        return client.isConnected && client.statistics.connects == count ? count : nil
    }

    /// Whether `connection` is still the one up.
    func isUp(_ connection: Int) -> Bool { self.connection == connection }

    /// The child's retained status, policy and latest command (each nil when none was published),
    /// as the broker holds them now. Throws `.brokerUnreachable` rather than answer while the
    /// connection is down or was lost meanwhile: a state not read is never reported as none.
    public func status(of child: Family.Child) async throws(BridgeError) -> [String: JSONObject] {
        let unreadable = "\(child.name)'s device status, restrictions and commands cannot be read now (unknown, not none)"
        guard let connection else { throw .brokerUnreachable(unreadable) }
        let up: @Sendable () -> Bool = { [self] in isUp(connection) }
        var answer: [String: JSONObject] = ["child": .string(child.deviceId), "name": .string(child.name)]
        let parts = ["status", "policy", "command"]
        var inboxes: [Inbox] = []
        defer { inboxes.forEach { $0.close() } }
        for part in parts {
            inboxes.append(
                try await Inbox.open(
                    "\(topics.prefix)/children/\(child.deviceId)/\(part)", on: client, while: up, limit: timeout, consequence: unreadable))
        }
        // The broker sends a subscription's retained message right after its acknowledgement, so once a
        // later subscription is acknowledged on the same connection every retained message above has
        // arrived: what is not in an inbox by then was never published, however slow the machine.
        let barrier = try await Inbox.open(
            "\(topics.prefix)/parents/\(parent)/barrier/\(UUID().uuidString.prefix(12))", on: client, while: up, limit: timeout,
            consequence: unreadable)
        barrier.close()
        guard up() else { throw .brokerUnreachable(unreadable) }
        for (part, inbox) in zip(parts, inboxes) {
            let latest = inbox.messages.last.flatMap { message in
                message.payload.isEmpty ? nil : try? JSONDecoder().decodePayload(JSONObject.self, from: message.payload)
            }
            answer[part] = latest ?? .null
        }
        return answer
    }

    /// App usage since `since` and current restrictions, from the command-router. Throws
    /// `.brokerUnreachable` at once while the connection is down.
    public func activity(of child: Family.Child, since: Timestamp?) async throws(BridgeError) -> JSONObject {
        let notAsked = "\(child.name)'s activity cannot be asked for now"
        guard let connection else { throw .brokerUnreachable(notAsked) }
        let up: @Sendable () -> Bool = { [self] in isUp(connection) }
        let responseTopic = "\(topics.prefix)/parents/\(parent)/activity-replies/\(UUID().uuidString.prefix(12))"
        let responses = try await Inbox.open(responseTopic, on: client, while: up, limit: timeout, consequence: notAsked)
        defer { responses.close() }
        var body: [String: JSONObject] = ["child": .string(child.deviceId)]
        if let since { body["since"] = .string(since.rfc3339) }
        try await publisher.publish(
            MQTTOutgoing(
                topic: "\(topics.prefix)/parents/\(parent)/activity", payload: GuardianJSON.encode(body),
                properties: MQTTProperties(responseTopic: responseTopic, correlationData: Data(responseTopic.utf8))))
        return try await whileConnected(
            up, limit: timeout, lost: .brokerUnreachable("the connection was lost before the command-router answered the activity request"),
            late: .noAnswer("the command-router did not answer the activity request within \(timeout)")
        ) { () throws(BridgeError) -> JSONObject in
            guard let answer = await responses.first({ try? JSONDecoder().decodePayload(JSONObject.self, from: $0.payload) }) else {
                throw .noAnswer("the command-router did not answer the activity request")
            }
            // The router's refusal ({"error": "…"}) is no activity report.
            if case .object(let fields) = answer, case .string(let reason)? = fields["error"] { throw .refused(reason: reason, asked: "\(child.name)'s activity") }
            return answer
        }
    }
}
