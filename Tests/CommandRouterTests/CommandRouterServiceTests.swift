import Foundation
@testable import GuardianCommandRouter
import GuardianShared
import GuardianTestSupport
import MQTT
import Synchronization
import Testing

final class RouterHarness: @unchecked Sendable {
    let broker = try! TestBroker()
    let data = try! TemporaryDirectory()
    let admin: MQTTClient
    let replies: MessageCollector
    let policies: MessageCollector
    let commands: MessageCollector
    let errors: MessageCollector
    let time: TestClock
    var service: CommandRouterService?
    var task: Task<Void, any Error>?

    init(now: String = "2026-11-18T14:00:00Z") async throws {
        time = TestClock(now)
        admin = try await broker.connectedClient("admin")
        replies = try await MessageCollector(admin, "guardian/parents/+/replies")
        policies = try await MessageCollector(admin, "guardian/children/+/policy")
        commands = try await MessageCollector(admin, "guardian/children/+/command")
        errors = try await MessageCollector(admin, "guardian/errors/command-router")
        try await admin.publish("guardian/families/smith", payload: GuardianJSON.encode(Family(parents: ["mum"], children: [.init(deviceId: "sam-tablet", name: "Sam")])), retain: true)
        try await admin.publish(
            "guardian/families/jones",
            payload: GuardianJSON.encode(Family(parents: ["dad-jones"], children: [.init(deviceId: "amy-tab", name: "Amy"), .init(deviceId: "ben-tab", name: "Ben")])),
            retain: true)
        let ts = Timestamp(rfc3339: "2026-11-01T00:00:00Z")!
        try await admin.publish(
            "guardian/events/sam-tablet/profile",
            payload: GuardianJSON.encode(DeviceEvent(id: "p", deviceId: "sam-tablet", ts: ts, receivedAt: ts, body: DeviceProfile(timezone: "Europe/London", role: .child))),
            retain: true)
    }

    func start(environment: [String: String] = [:]) async throws {
        let config = try broker.serviceConfig(service: "command-router", dataDirectory: data.url, extra: environment)
        let service = try CommandRouterService(config: config, logger: .quiet, clock: time.clock)
        self.service = service
        task = try await startInProcess(service, name: "command-router", observer: admin)
    }

    func stop() async {
        await stopInProcess(task)
        task = nil
        service = nil
    }

    func shutdown() async {
        await stop()
        await admin.shutdown()
        broker.stop()
    }

    func say(_ parent: String, _ text: String, id: String, child: String? = nil) async throws {
        var body: [String: String] = ["id": id, "text": text]
        body["child"] = child
        try await admin.publish("guardian/parents/\(parent)/commands", payload: GuardianJSON.encode(body))
    }

    /// The reply to command `id`, once it arrived (nil if it never does, within a generous ceiling).
    func reply(_ id: String) async -> CommandReply? {
        func found() -> CommandReply? {
            replies.all.compactMap { try? JSONDecoder().decode(CommandReply.self, from: $0.payload) }.first { $0.commandId == id }
        }
        _ = await eventually(.seconds(120)) { found() != nil }
        return found()
    }

    func policies(_ device: String) -> [ChildPolicy] {
        policies.all.filter { $0.topic == "guardian/children/\(device)/policy" }.compactMap { try? JSONDecoder().decode(ChildPolicy.self, from: $0.payload) }
    }
}

@Suite("command-router over a real mosquitto")
struct CommandRouterServiceTests {
    @Test("a parent's words become a retained command and policy, a reply; ten more minutes lift the block for ten minutes; it expires on time")
    func blockAndExpire() async throws {
        let h = try await RouterHarness()
        try await h.start()
        try await h.say("mum", "Block all games for 2 hours", id: "c1")
        let reply = try #require(await h.reply("c1"))
        #expect(reply.status == .accepted && reply.summary.hasPrefix("Sam: "))
        #expect(reply.command?["action"]?.string == "shutdown" && reply.command?["durationSeconds"]?.number == 7200)
        let command = try #require(await h.commands.wait(for: 1).first)
        #expect(command.topic == "guardian/children/sam-tablet/command")
        let latest = try JSONDecoder().decode(ChildCommandMessage.self, from: command.payload)
        #expect(latest.id == "c1" && latest.issuedBy == "mum" && latest.expiresAt == Timestamp(rfc3339: "2026-11-18T16:00:00Z"))
        await h.policies.wait(for: 1)
        let policy = try #require(h.policies("sam-tablet").last)
        #expect(policy.version == 1 && policy.restrictions.count == 1)
        #expect(policy.restrictions.first?.kind == "shutdown" && policy.restrictions.first?.categories == ["games"] && policy.restrictions.first?.commandId == "c1")
        #expect(policy.restrictions.first?.until == Timestamp(rfc3339: "2026-11-18T16:00:00Z"))
        // Ten more minutes: games are open for ten minutes, then blocked again until the block ends.
        try await h.say("mum", "Give him 10 more minutes", id: "c2")
        #expect(await h.reply("c2")?.status == .accepted)
        await h.policies.wait(for: 2)
        #expect(h.policies("sam-tablet").last?.restrictions.isEmpty == true)
        h.time.set("2026-11-18T14:10:01Z")
        await h.policies.wait(for: 3)
        let again = try #require(h.policies("sam-tablet").last?.restrictions.first)
        #expect(again.categories == ["games"] && again.until == Timestamp(rfc3339: "2026-11-18T16:00:00Z"))
        h.time.set("2026-11-18T16:00:01Z")
        await h.policies.wait(for: 4)
        let expired = try #require(h.policies("sam-tablet").last)
        #expect(expired.restrictions.isEmpty && expired.version == 4)
        await h.shutdown()
    }

    @Test("with GUARDIAN_LLM_URL set, the rules answer first; only their questions reach the model, whose answer passes the safety net",
          .enabled(if: FakeLLMServer.pythonAvailable))
    func modelOnlyForQuestions() async throws {
        let server = try FakeLLMServer()
        defer { server.stop() }
        let h = try await RouterHarness()
        try await h.start(environment: ["GUARDIAN_LLM_URL": server.baseURL("allow-youtube").absoluteString, "GUARDIAN_LLM_TIMEOUT": "120"])
        try await h.say("mum", "Block all games for 2 hours", id: "m1")
        let rules = try #require(await h.reply("m1"))
        #expect(rules.status == .accepted && rules.command?["action"]?.string == "shutdown")
        #expect(try await server.lastRequest().isEmpty, "the model was asked about words the rules read")
        try await h.say("mum", "YouTube is fine for her now that her project is finished", id: "m2")
        let model = try #require(await h.reply("m2"))
        #expect(model.status == .accepted && model.command?["action"]?.string == "allow" && model.summary.hasPrefix("Sam: "))
        #expect(try await server.lastRequest()["messages"] != nil)
        // The model allows YouTube where the words refuse it: a question instead.
        try await h.say("mum", "no youtube for her, she was rude to her brother", id: "m3")
        let overruled = try #require(await h.reply("m3"))
        #expect(overruled.status == .clarify && overruled.summary.contains("adding a block"), "\(overruled.summary)")
        await h.shutdown()
    }

    @Test("a stop waits for the model's answer to a command read before it: the parent hears back",
          .enabled(if: FakeLLMServer.pythonAvailable))
    func stopWaitsForTheModel() async throws {
        let server = try FakeLLMServer(slowSeconds: 3)
        defer { server.stop() }
        let h = try await RouterHarness()
        try await h.start(environment: ["GUARDIAN_LLM_URL": server.baseURL("slow").absoluteString, "GUARDIAN_LLM_TIMEOUT": "120"])
        try await h.say("mum", "her games can wait until the project is finished", id: "s1")
        // The model has the words (it answers after 3 s) when the router is asked to stop. (Were the
        // machine so slow that the answer came first, the test would only show less, never fail.)
        #expect(await eventually { (try? await server.lastRequest())?["messages"] != nil })
        await h.stop()
        let reply = try #require(await h.reply("s1"), "no reply: the command was acknowledged when read and its answer lost at the stop")
        #expect([.accepted, .clarify].contains(reply.status))
        await h.shutdown()
    }

    @Test("a block asked for again is one restriction; a shorter one is told when the block really ends")
    func repeatedBlock() async throws {
        let h = try await RouterHarness()
        try await h.start()
        try await h.say("mum", "Block all games for 2 hours", id: "r1")
        #expect(await h.reply("r1")?.status == .accepted)
        try await h.say("mum", "Block all games for 10 minutes", id: "r2")
        let second = try #require(await h.reply("r2"))
        #expect(second.status == .accepted)
        #expect(second.summary.contains("until") && second.summary.contains("a longer block was already in force"), "\(second.summary)")
        #expect(await eventually(.seconds(120)) { h.policies("sam-tablet").last?.restrictions.map(\.commandId) == ["r2"] })
        let block = try #require(h.policies("sam-tablet").last?.restrictions.first)
        #expect(block.until == RFC3339.parse("2026-11-18T16:00:00Z").map(Timestamp.init), "ends \(block.until.map(\.rfc3339) ?? "never")")
        await h.shutdown()
    }

    @Test("commands asked of the model and never answered (a kill) are asked again on start; one read too long ago is refused, not applied late")
    func unansweredQuestionsOnStart() async throws {
        let server = try FakeLLMServer()
        defer { server.stop() }
        let h = try await RouterHarness()  // now 14:00
        // What a router killed while the model thought left in its store: one read two minutes ago, one an hour ago.
        do {
            let config = try h.broker.serviceConfig(service: "command-router", dataDirectory: h.data.url)
            let store = try RouterStore(config: config, logger: .quiet)
            let words = "her games can wait until the project is finished"
            for (id, asked) in [("fresh", "2026-11-18T13:58:00Z"), ("stale", "2026-11-18T13:00:00Z")] {
                let message = MQTTMessage(topic: "guardian/parents/mum/commands", payload: GuardianJSON.encode(["id": id, "text": words]))
                _ = try store.ask(message, at: Timestamp(rfc3339: asked)!)
            }
        }
        try await h.start(environment: ["GUARDIAN_LLM_URL": server.baseURL("valid").absoluteString, "GUARDIAN_LLM_TIMEOUT": "120"])
        // The model answers "shut down games for 4321 s, child Sam".
        let fresh = try #require(await h.reply("fresh"), "the command left unanswered was not asked again")
        #expect(fresh.status == .accepted, "\(fresh)")
        let stale = try #require(await h.reply("stale"))
        #expect(stale.status == .rejected && stale.reason?.contains("say them again") == true, "\(stale)")
        #expect(await eventually(.seconds(120)) { h.policies("sam-tablet").last?.restrictions.map(\.commandId) == ["fresh"] })
        await h.shutdown()
    }

    @Test("a parent commands only the children of their family; unclear words get a question")
    func authorisationAndClarify() async throws {
        let h = try await RouterHarness()
        try await h.start()
        try await h.admin.publish(
            "guardian/parents/dad-jones/commands", payload: Data(#"{"id": "x1", "command": {"action": "shutdown"}, "child": "sam-tablet"}"#.utf8))
        let refused = try #require(await h.reply("x1"))
        #expect(refused.status == .rejected && refused.reason?.contains("not in your family") == true)
        try await h.say("stranger", "Block YouTube", id: "x2")
        #expect(await h.reply("x2")?.status == .rejected)
        try await h.say("dad-jones", "Block YouTube for him", id: "x3")
        let which = try #require(await h.reply("x3"))
        #expect(which.status == .clarify && which.summary.contains("Amy") && which.summary.contains("Ben"))
        try await h.say("dad-jones", "Block YouTube for an hour", id: "x4", child: "Ben")
        #expect(await h.reply("x4")?.status == .accepted)
        try await h.say("mum", "the weather is lovely", id: "x5")
        #expect(await h.reply("x5")?.status == .clarify)
        #expect(h.policies("sam-tablet").isEmpty && h.service?.counters["refused"] == 2)
        // "then bedtime mode": games are open for 15 minutes, then bedtime begins (the games block still runs).
        try await h.say("mum", "Block all games for 1 hour", id: "x6")
        try await h.say("mum", "Give him 15 more minutes then bedtime mode", id: "x7")
        #expect(await h.reply("x7")?.status == .accepted)
        #expect(await eventually(.seconds(120)) { h.policies("sam-tablet").count == 2 })
        #expect(h.policies("sam-tablet").last?.restrictions.isEmpty == true)
        h.time.set("2026-11-18T14:15:01Z")
        #expect(await eventually(.seconds(120)) { Set(h.policies("sam-tablet").last?.restrictions.map(\.kind) ?? []) == ["shutdown", "bedtime"] })
        await h.shutdown()
    }

    @Test("words naming a child other than the one the message was sent for are a question; the named child's clock reads their times")
    func namedChild() async throws {
        let h = try await RouterHarness()  // 14:00 UTC: 23:00 in Tokyo
        let ts = Timestamp(rfc3339: "2026-11-01T00:00:00Z")!
        for device in ["amy-tab", "ben-tab"] {
            try await h.admin.publish(
                "guardian/events/\(device)/profile",
                payload: GuardianJSON.encode(DeviceEvent(id: "p", deviceId: device, ts: ts, receivedAt: ts, body: DeviceProfile(timezone: "Asia/Tokyo", role: .child))),
                retain: true)
        }
        try await h.start()
        try await h.say("dad-jones", "Block YouTube for Amy", id: "n1", child: "ben-tab")
        let which = try #require(await h.reply("n1"))
        #expect(which.status == .clarify && which.summary.contains("Amy") && which.summary.contains("Ben"), "\(which.summary)")
        // No child in the message: "10am" is Ben's, in Tokyo, not UTC's.
        try await h.say("dad-jones", "Block Netflix for Ben until 10am", id: "n2")
        let block = try #require(await h.reply("n2"))
        #expect(block.status == .accepted && block.summary.hasPrefix("Ben: "), "\(block.status) \(block.summary)")
        #expect(block.command?["until"]?.string == "2026-11-19T01:00:00.000Z")
        #expect(h.policies("amy-tab").isEmpty)
        await h.shutdown()
    }

    @Test("a bedtime schedule starts and ends on the child's clock; policies come back after a restart")
    func scheduleAndRestart() async throws {
        let h = try await RouterHarness(now: "2026-11-18T20:00:00Z")  // a Wednesday, 20:00 in London
        try await h.start()
        try await h.admin.publish(
            "guardian/parents/mum/commands",
            payload: Data(#"{"id": "s1", "command": {"action": "schedule", "schedule": {"start": "21:00", "end": "07:00", "type": "bedtime", "repeat": "daily"}}}"#.utf8))
        #expect(await h.reply("s1")?.status == .accepted)
        await h.policies.wait(for: 1)
        #expect(h.policies("sam-tablet").last?.restrictions.isEmpty == true)
        h.time.set("2026-11-18T21:30:00Z")
        await h.policies.wait(for: 2)
        let bedtime = try #require(h.policies("sam-tablet").last?.restrictions.first)
        #expect(bedtime.kind == "bedtime" && bedtime.from == Timestamp(rfc3339: "2026-11-18T21:00:00Z") && bedtime.until == Timestamp(rfc3339: "2026-11-19T07:00:00Z"))
        await h.stop()
        h.time.set("2026-11-19T07:00:05Z")
        try await h.start()
        await h.policies.wait(for: 3)
        #expect(h.policies("sam-tablet").last?.restrictions.isEmpty == true && h.policies("sam-tablet").last?.version == 3)
        await h.shutdown()
    }

    @Test("garbage commands are reported; a redelivered command is handled once")
    func garbageAndRedelivery() async throws {
        let h = try await RouterHarness()
        try await h.start()
        try await h.admin.publish("guardian/parents/mum/commands", payload: Data("nope".utf8))
        try await h.admin.publish("guardian/parents/mum/commands", payload: Data(#"{"id": "g1", "command": {"action": "explode"}}"#.utf8))
        #expect(await h.reply("g1")?.status == .rejected)
        for _ in 0..<3 { try await h.say("mum", "No more YouTube until homework is done", id: "same") }
        #expect(await h.reply("same")?.status == .accepted)
        // Once the redeliveries are counted and a later command is answered, a second reply would be in.
        #expect(await eventually { h.service?.counters["duplicates"] == 2 })
        try await h.say("mum", "Block YouTube for an hour", id: "after")
        #expect(await h.reply("after") != nil)
        #expect(h.replies.all.filter { (try? JSONDecoder().decode(CommandReply.self, from: $0.payload))?.commandId == "same" }.count == 1)
        #expect(h.service?.counters["duplicates"] == 2)
        #expect(await h.errors.wait(for: 2).count == 2)
        await h.shutdown()
    }

    @Test("a structured command ending in the past or beyond 7 days, or sent with words too, is refused and reported, nothing applied")
    func structuredUntilChecked() async throws {
        let h = try await RouterHarness()  // 2026-11-18 14:00 UTC
        try await h.start()
        let refused = [
            ("u1", #"{"id": "u1", "command": {"action": "extend", "until": "2099-01-01T00:00:00Z"}}"#, "more than 7 days ahead"),
            ("u2", #"{"id": "u2", "command": {"action": "shutdown", "until": "2001-01-01T00:00:00Z"}}"#, "in the past"),
            ("u3", #"{"id": "u3", "text": "block games for 1 hour", "command": {"action": "allow"}}"#, "not both"),
            ("u4", #"{"id": "u4", "command": {"action": "shutdown", "durationSeconds": 1000000000000000}}"#, "between 1 second and 7 days"),
        ]
        for (id, body, reason) in refused {
            try await h.admin.publish("guardian/parents/mum/commands", payload: Data(body.utf8))
            let reply = try #require(await h.reply(id))
            #expect(reply.status == .rejected && reply.reason?.contains(reason) == true, "\(id): \(reply.reason ?? "")")
        }
        #expect(await h.errors.wait(for: refused.count).count == refused.count)
        try await h.admin.publish("guardian/parents/mum/commands", payload: Data(#"{"id": "u5", "command": {"action": "shutdown", "until": "2026-11-18T16:00:00Z"}}"#.utf8))
        #expect(await h.reply("u5")?.status == .accepted)
        await h.policies.wait(for: 1)
        #expect(h.policies("sam-tablet").count == 1 && h.commands.all.count == 1, "only the valid command was applied")
        await h.shutdown()
    }
}
