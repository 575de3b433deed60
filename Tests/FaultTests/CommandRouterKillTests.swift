import Foundation
import GuardianShared
import GuardianTestSupport
import MQTT
import Testing

extension KillTests {
    /// A parent's structured commands to four children: mostly warnings, every tenth per child a
    /// two-hour block of one app. Each command must be applied once: one accepted reply, the child's
    /// retained command ending on its last one, and its retained policy holding exactly its blocks
    /// with one version per block (a command applied twice would add a rule and a version).
    @Test("command-router killed with SIGKILL mid-stream: every command applied once and answered, none lost")
    func commandRouter() async throws {
        try #require(FaultHarness.built("command-router"))
        let broker = try TestBroker()
        let data = try TemporaryDirectory()
        let observer = try await broker.connectedClient("observer")
        let children = 4, perChild = 400
        let family = Family(parents: ["parent-a"], children: (0..<children).map { Family.Child(deviceId: "kid-\($0)", name: "Kid\($0)") })
        try await observer.publish("guardian/families/fam", payload: GuardianJSON.encode(family), retain: true)
        let replies = try await Tally(observer, "guardian/parents/parent-a/replies") { _, object in
            (object["commandId"] as? String).map { "\($0)/\(object["status"] as? String ?? "?")" }
        }
        var router = try await FaultHarness.start("command-router", broker: broker, data: data.url, observer: observer)
        let parent = try await broker.connectedClient("parent-app")

        var stream: [MQTTOutgoing] = []
        var expected: Set<String> = []
        var blocks: [String: Set<String>] = [:], last: [String: String] = [:]
        for k in 0..<perChild {
            for c in 0..<children {
                let id = "cmd-\(c)-\(k)", child = "kid-\(c)"
                let command =
                    k % 10 == 0
                    ? #"{"action": "block_app", "apps": ["app\#(k)"], "durationSeconds": 7200}"#
                    : #"{"action": "warning", "message": "Message \#(k)"}"#
                stream.append(MQTTOutgoing(topic: "guardian/parents/parent-a/commands", payload: Data(#"{"id": "\#(id)", "child": "\#(child)", "command": \#(command)}"#.utf8)))
                expected.insert("\(id)/accepted")
                if k % 10 == 0 { blocks[child, default: []].insert(id) }
                last[child] = id
            }
        }
        let sender = StreamSender(stream, with: parent, perSecond: 1000, holding: true)

        let kill = try await FaultHarness.killMidStream(router, sender: sender, outputs: replies, expected: expected.count) {
            try await FaultHarness.start("command-router", broker: broker, data: data.url, observer: observer)
        }
        router = kill.restarted
        kill.at.expectMidStream(inputs: stream.count, outputs: expected.count)
        let missing = expected.subtracting(replies.keys), extra = replies.keys.subtracting(expected)
        #expect(missing.count == 0, "\(missing.count) replies lost, e.g. \(missing.sorted().prefix(3))")
        #expect(extra.count == 0, "unexpected replies (a command answered as a duplicate or rejected): \(extra.sorted().prefix(3))")
        // At-least-once across a crash: the outbox republishes what the broker had not acknowledged or the
        // service had not yet cleared (every 200 ms), with the same commandId and in the original order
        // (so retained state ends on the latest); consumers drop repeated replies by commandId.
        #expect(replies.repeats < 1000, "\(replies.repeats) repeated replies")

        // What a child (re)connecting now reads: its last command, and a policy with every block once.
        let reader = try await broker.connectedClient("child-app")
        let commands = try await Tally(reader, "guardian/children/+/command") { topic, object in
            (object["id"] as? String).map { "\(topic.split(separator: "/")[2])=\($0)" }
        }
        let policies = try await MessageCollector(reader, "guardian/children/+/policy")
        await FaultHarness.waitUntil(timeout: .seconds(120)) { commands.distinct >= children && policies.count >= children }
        #expect(commands.keys == Set(last.map { "\($0.key)=\($0.value)" }), "retained commands: \(commands.keys.sorted())")
        for message in policies.all {
            let child = String(message.topic.split(separator: "/")[2])
            let policy = try #require((try? JSONSerialization.jsonObject(with: message.payload)) as? [String: Any])
            let ids = ((policy["restrictions"] as? [[String: Any]]) ?? []).compactMap { $0["commandId"] as? String }
            #expect(ids.count == Set(ids).count && Set(ids) == blocks[child], "\(child)'s policy holds \(ids.count) restrictions")
            #expect(policy["version"] as? Int == blocks[child]?.count, "\(child)'s policy version \(policy["version"] ?? "none")")
        }

        router.kill()
        await reader.shutdown()
        await parent.shutdown()
        await observer.shutdown()
        broker.stop()
    }
}

extension KillTests {
    /// A parent's words the rules would question go to the model; the router is killed while the
    /// model thinks (the command's message was acknowledged when read) and started again.
    @Test("command-router killed with SIGKILL while the model thinks: asks again on restart and answers the parent")
    func commandRouterDuringModelCall() async throws {
        try #require(FaultHarness.built("command-router"))
        try #require(FakeLLMServer.pythonAvailable, "python3 runs the stand-in model")
        // `slow` answers only after this long: the first router never hears back.
        let model = try FakeLLMServer(slowSeconds: 600)
        defer { model.stop() }
        let broker = try TestBroker()
        let data = try TemporaryDirectory()
        let observer = try await broker.connectedClient("observer")
        let family = Family(parents: ["mum"], children: [Family.Child(deviceId: "sam-tablet", name: "Sam")])
        try await observer.publish("guardian/families/fam", payload: GuardianJSON.encode(family), retain: true)
        let replies = try await Tally(observer, "guardian/parents/mum/replies") { _, object in
            (object["commandId"] as? String).map { "\($0)/\(object["status"] as? String ?? "?")" }
        }
        let thinking = ["GUARDIAN_LLM_URL": model.baseURL("slow").absoluteString, "GUARDIAN_LLM_TIMEOUT": "900"]
        var router = try await FaultHarness.start("command-router", broker: broker, data: data.url, observer: observer, environment: thinking)
        let parent = try await broker.connectedClient("parent-app")
        try await parent.publish("guardian/parents/mum/commands", payload: Data(#"{"id": "m1", "text": "her games can wait until the project is finished"}"#.utf8))
        let asked = await eventually(.seconds(120)) { (try? await model.lastRequest())?["messages"] != nil }
        try #require(asked, "the model was never asked")
        router.kill(signal: SIGKILL)
        #expect(replies.keys.isEmpty, "answered before the kill: \(replies.keys)")

        // Started again with a model that answers at once ("shut down games for 4321 s, child Sam").
        router = try await FaultHarness.start(
            "command-router", broker: broker, data: data.url, observer: observer,
            environment: ["GUARDIAN_LLM_URL": model.baseURL("valid").absoluteString])
        let answered = await FaultHarness.waitUntil(timeout: .seconds(120)) { replies.keys.contains("m1/accepted") }
        #expect(answered, "no answer after the restart (the command was acknowledged when read, then lost): \(replies.keys)")
        let reader = try await broker.connectedClient("child-app")
        let command = try await MessageCollector(reader, "guardian/children/sam-tablet/command")
        #expect(await FaultHarness.waitUntil(timeout: .seconds(120)) { command.count > 0 })
        let latest = try #require(command.all.last.flatMap { (try? JSONSerialization.jsonObject(with: $0.payload)) as? [String: Any] })
        #expect(latest["id"] as? String == "m1")

        router.kill()
        await reader.shutdown()
        await parent.shutdown()
        await observer.shutdown()
        broker.stop()
    }
}
