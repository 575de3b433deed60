import Foundation
import GRDB
@testable import GuardianCommandRouter
import GuardianShared
import GuardianTestSupport
import MQTT
import Testing

/// A real broker, command-router instances in-process sharing one test clock, an admin client and
/// observers; one family per child (parent `p-{d}`, child `kid-{d}`).
final class RouterShardsHarness: @unchecked Sendable {
    let broker = try! TestBroker()
    let admin: MQTTClient
    let replies: MessageCollector
    let errors: MessageCollector
    let time = TestClock("2026-11-18T14:00:00Z")
    var instances: [(service: CommandRouterService, task: Task<Void, any Error>, data: TemporaryDirectory)] = []
    /// Every instance ever started, for their counters.
    var started: [CommandRouterService] = []

    init(children: Int) async throws {
        admin = try await broker.connectedClient("admin-\(UUID().uuidString.prefix(6))")
        replies = try await MessageCollector(admin, "guardian/parents/+/replies")
        errors = try await MessageCollector(admin, "guardian/errors/command-router")
        for d in 0..<children {
            let family = Family(parents: ["p-\(d)"], children: [.init(deviceId: "kid-\(d)", name: "Kid\(d)")])
            try await admin.publish("guardian/families/f-\(d)", payload: GuardianJSON.encode(family), retain: true)
        }
    }

    @discardableResult
    func start(shard: String, instance: String, data: TemporaryDirectory? = nil) async throws -> CommandRouterService {
        let directory = try data ?? TemporaryDirectory()
        let config = try broker.serviceConfig(service: "command-router", dataDirectory: directory.url, instance: instance, extra: ["GUARDIAN_SHARD": shard])
        let service = try CommandRouterService(config: config, logger: .quiet, clock: time.clock)
        let task = try await startInProcess(service, name: "command-router", instance: instance, observer: admin)
        instances.append((service, task, directory))
        started.append(service)
        return service
    }

    /// Stops one instance gracefully; returns its data directory.
    func stop(instance id: String) async -> TemporaryDirectory? {
        guard let index = instances.firstIndex(where: { $0.service.runtime.config.instanceId == id }) else { return nil }
        let instance = instances.remove(at: index)
        await stopInProcess(instance.task)
        return instance.data
    }

    func publish(_ messages: ArraySlice<MQTTOutgoing>) async throws {
        for message in messages { try await admin.publish(message) }
    }

    /// Each command id's replies (as "status summary").
    var repliesById: [String: [String]] {
        var byId: [String: [String]] = [:]
        for message in replies.all {
            guard let reply = try? JSONDecoder().decode(CommandReply.self, from: message.payload) else { continue }
            byId[reply.commandId, default: []].append("\(reply.status) \(reply.summary)")
        }
        return byId
    }

    func shutdown() async {
        for instance in instances { await stopInProcess(instance.task) }
        instances = []
        await admin.shutdown()
        broker.stop()
    }
}

/// What a command-router holds about one child: its rules, policy version and restrictions, app
/// usage and handled commands.
struct RouterChildState: Equatable, CustomStringConvertible {
    var rules: [RestrictionRule]
    var version: Int
    var published: [ChildPolicy.Restriction]?
    var usage: [String]
    var handled: [String]

    init(_ service: CommandRouterService, deviceId: String) throws {
        let child = service.state.withLock { $0.children[deviceId] }
        rules = child?.rules ?? []
        version = child?.version ?? 0
        published = child?.published
        (usage, handled) = try service.store.store.read { db in
            (
                try String.fetchAll(db, sql: "SELECT event_id || ' ' || ts || ' ' || app || ' ' || seconds FROM usage WHERE device_id = ? ORDER BY 1", arguments: [deviceId]),
                try String.fetchAll(db, sql: "SELECT parent || ' ' || command_id FROM handled WHERE device_id = ? ORDER BY 1", arguments: [deviceId])
            )
        }
    }

    var description: String { "\(rules.count) rules, policy v\(version), \(usage.count) usage events, \(handled.count) commands handled" }
}

/// The command-router re-sharded 1 → 2 → 1 while parents send commands and devices send usage.
@Suite("command-router re-sharding over a real mosquitto")
struct CommandRouterReshardTests {
    static let blocks = ["Block all games for 2 hours", "Block YouTube for an hour", "Block social for 3 hours"]

    /// A block, or every fourth round ten more minutes. Each child's first command is accepted: a
    /// child first seen through a rejected command gets an empty policy at the next refresh tick,
    /// whose timing would make policy versions differ between runs.
    static func phrase(round: Int, child: Int) -> String {
        round % 4 == 3 ? "Give him 10 more minutes" : blocks[(round + child) % blocks.count]
    }

    /// Per round and child: a command (every third one sent again a round later, as a redelivery
    /// would) and two usage events.
    static func stream(children: Int, rounds: Int) -> (messages: [MQTTOutgoing], commands: Int, usage: Int) {
        var messages: [MQTTOutgoing] = []
        var commands = 0, usage = 0
        let base = Timestamp(rfc3339: "2026-11-18T10:00:00Z")!
        for r in 0..<rounds {
            for d in 0..<children {
                func command(_ round: Int) -> MQTTOutgoing {
                    let body = ["id": "c-\(d)-\(round)", "text": phrase(round: round, child: d)]
                    return MQTTOutgoing(topic: "guardian/parents/p-\(d)/commands", payload: GuardianJSON.encode(body))
                }
                messages.append(command(r))
                commands += 1
                if r > 0, (r - 1) % 3 == 0 { messages.append(command(r - 1)) }
                for u in 0..<2 {
                    let ts = base.adding(seconds: Double(r * 60 + u))
                    let body = AppUsage(app: ["minecraft", "youtube"][u], category: [.games, .video][u], seconds: Double(30 + d + r))
                    let event = DeviceEvent(id: "u-\(d)-\(r)-\(u)", deviceId: "kid-\(d)", ts: ts, receivedAt: ts, body: body)
                    messages.append(MQTTOutgoing(topic: "guardian/events/kid-\(d)/usage", payload: GuardianJSON.encode(event)))
                    usage += 1
                }
            }
        }
        return (messages, commands, usage)
    }

    static func usageRows(_ service: CommandRouterService) -> Int {
        (try? service.store.store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM usage") ?? 0 }) ?? 0
    }

    /// Waits until every command has its reply and every usage event is stored on `service`.
    static func settle(_ h: RouterShardsHarness, _ service: CommandRouterService, commands: Int, usage: Int) async -> Bool {
        await eventually(.seconds(150)) { h.repliesById.count >= commands && usageRows(service) >= usage }
    }

    /// Each child's retained policy, read afresh.
    static func retainedPolicies(_ h: RouterShardsHarness, children: Int) async throws -> [String: ChildPolicy] {
        let collector = try await MessageCollector(h.admin, "guardian/children/+/policy")
        _ = await collector.wait(for: children)
        var policies: [String: ChildPolicy] = [:]
        for message in collector.all {
            policies[String(message.topic.split(separator: "/")[2])] = try? JSONDecoder().decode(ChildPolicy.self, from: message.payload)
        }
        return policies
    }

    @Test("1 → 2 → 1 shards while parents command and devices report usage: each child's rules, policy, usage and handled commands as with one shard, no command lost or applied twice")
    func reshardWhileCommanding() async throws {
        let children = 24, rounds = 12
        let (stream, commands, usage) = Self.stream(children: children, rounds: rounds)

        // Without re-sharding.
        let control = try await RouterShardsHarness(children: children)
        let one = try await control.start(shard: "0/1", instance: "r0")
        try await control.publish(stream[...])
        #expect(await Self.settle(control, one, commands: commands, usage: usage), "the stream was not handled without re-sharding")
        let expected = try (0..<children).map { try RouterChildState(one, deviceId: "kid-\($0)") }
        let expectedReplies = control.repliesById
        let expectedPolicies = try await Self.retainedPolicies(control, children: children)
        await control.shutdown()
        let expectedApplied = one.counters["accepted"] + one.counters["rejected"]
        #expect(expectedReplies.count == commands && expectedApplied > 0)

        // 1 → 2 → 1, each move while a fifth of the stream is published.
        let h = try await RouterShardsHarness(children: children)
        let watch = try await ShardMoveWatch(h.admin, service: "command-router")
        let fifth = stream.count / 5
        try await h.start(shard: "0/1", instance: "r0")
        try await h.publish(stream[..<fifth])

        async let toTwo: CommandRouterService = h.start(shard: "1/2", instance: "r1")
        try await h.publish(stream[fifth..<(2 * fifth)])
        let second = try await toTwo
        #expect(await watch.waitSettled(count: 2, instances: ["r0", "r1"]), "the move to 2 shards did not finish")
        #expect(second.counters["adopted"] > 0, "no child moved to r1")
        try await h.publish(stream[(2 * fifth)..<(3 * fifth)])

        let data = await h.stop(instance: "r0")
        async let backToOne: CommandRouterService = h.start(shard: "0/1", instance: "r0", data: data)
        try await h.publish(stream[(3 * fifth)..<(4 * fifth)])
        let last = try await backToOne
        #expect(await watch.waitSettled(count: 1, instances: ["r0", "r1"], ownNothing: ["r1"]), "the move back to 1 shard did not finish")
        #expect(second.isLead == false && last.isLead, "the lead is not the instance that owns shard 0")
        #expect(try second.heldDevices().isEmpty, "r1 still holds children it handed off")
        _ = await h.stop(instance: "r1")
        try await h.publish(stream[(4 * fifth)...])

        #expect(await Self.settle(h, last, commands: commands, usage: usage), "commands or usage lost")
        #expect(last.counters["adopted"] > 0, "no child came back to r0 from r1")
        for d in 0..<children {
            let id = "kid-\(d)"
            let state = try RouterChildState(last, deviceId: id)
            #expect(state == expected[d], "\(id): \(state), \(expected[d]) without re-sharding; rules \(state.rules), \(expected[d].rules) without; published \(String(describing: state.published)), \(String(describing: expected[d].published)) without")
        }
        let replies = h.repliesById
        let differ = replies.filter { $0.value.sorted() != expectedReplies[$0.key]?.sorted() }
        #expect(differ.isEmpty, "replies not as without re-sharding (lost or doubled): \(differ.keys.sorted())")
        let applied = h.started.map { $0.counters["accepted"] + $0.counters["rejected"] }.reduce(0, +)
        #expect(applied == expectedApplied, "\(applied) commands applied, \(expectedApplied) without re-sharding")
        let policies = try await Self.retainedPolicies(h, children: children)
        for d in 0..<children {
            let id = "kid-\(d)"
            #expect(policies[id]?.version == expectedPolicies[id]?.version && policies[id]?.restrictions == expectedPolicies[id]?.restrictions,
                "\(id): retained policy v\(policies[id]?.version ?? -1), v\(expectedPolicies[id]?.version ?? -1) without re-sharding")
        }
        let total = { (name: String) in h.started.map { $0.counters[name] }.reduce(0, +) }
        print("re-sharding command-router, \(children) children: moved \(second.counters["adopted"]) to r1 and \(last.counters["adopted"]) back; \(total("heldBack")) messages held back, \(total("duplicates")) redeliveries dropped")
        #expect(h.errors.all.isEmpty, "errors: \(h.errors.all.map { String(decoding: $0.payload, as: UTF8.self) })")
        await h.shutdown()
    }
}
