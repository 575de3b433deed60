import Foundation
@testable import GuardianMCP
import GuardianShared
import GuardianTestSupport
import MCP
import Testing

@Suite("guardian-mcp's tools, called in-process over the real broker")
struct ToolCallTests {
    @Test("check_child_activity refuses a since the command-router would refuse, at once and with the router's reason")
    func sinceCheckedAsTheRouterDoes() async throws {
        try await MCPHousehold.run { _, tools in
            #expect(await eventually(.seconds(120)) { !tools.bridge.children.isEmpty }, "the family arrives")
            let accepted = await tools.answer("check_child_activity", ["child": "Sam", "since": "2026-01-01T00:00:00Z"])
            #expect(!accepted.isError && accepted.text.contains("\"apps\""), "\(accepted)")
            let epoch = await tools.answer("check_child_activity", ["child": "Sam", "since": "1970-01-01T00:00:00Z"])
            #expect(epoch.isError && epoch.text == "since: time 1970-01-01T00:00:00.000Z is outside 2000-2200", "\(epoch)")
            let farOff = await tools.answer("check_child_activity", ["child": "Sam", "since": "2250-01-01T00:00:00+01:00"])
            #expect(farOff.isError && farOff.text.contains("outside 2000-2200"), "\(farOff)")
            let words = await tools.answer("check_child_activity", ["child": "Sam", "since": "yesterday"])
            #expect(words.isError && words.text.contains("RFC 3339"), "\(words)")
        }
    }

    @Test("a tool called as soon as guardian-mcp is connected waits for the family, never answers that there is none")
    func familyBeforeAnswering() async throws {
        try await MCPHousehold.with { household in
            // Fresh starts, each called at once, as a client sending initialize and tools/call back to back.
            for _ in 0..<5 {
                let bridge = try await household.bridge()
                let answer = await GuardianTools(bridge: bridge).answer("get_device_status", ["child": "Sam"])
                await bridge.close()
                #expect(!answer.isError && answer.text.contains("\"name\":\"Sam\""), "\(answer)")
            }
        }
    }

    @Test("a command the router refuses is an error, its reason first; a question is said to be one for the parent")
    func refusalsAndQuestions() async throws {
        try await MCPHousehold.run { household, tools in
            let refused = await tools.answer("send_restriction_command", ["command": ["action": "extend", "durationSeconds": 300]])
            #expect(refused.isError && refused.text.hasPrefix("Not done: nothing limits") && refused.text.contains("(asked: Sam: "), "\(refused)")
            let question = await tools.answer("send_restriction_command", ["text": "Block YouTube for Amy"])
            #expect(!question.isError && question.text.hasPrefix("Question for the parent") && question.text.contains("Amy"), "\(question)")
            let accepted = await tools.answer("send_restriction_command", ["text": "Block all games for 2 hours"])
            #expect(!accepted.isError && accepted.text.contains("\"status\":\"accepted\""), "\(accepted)")
            #expect(household.router.counters["accepted"] == 1)
        }
    }

    @Test("an activity request the router refuses is an error with its reason, not an activity report")
    func activityRefused() async throws {
        try await MCPHousehold.run { household, tools in
            // The router refuses (its view of the family differs): a stand-in answers as it does then.
            household.task.cancel()
            _ = try? await household.task.value
            let router = try await household.broker.connectedClient("admin")
            try await router.subscribe("guardian/parents/+/activity") { message in
                guard let topic = message.properties.responseTopic else { return }
                Task { try? await router.publish(topic, payload: GuardianJSON.encode(["error": "you are not a parent in any family"])) }
            }
            let refused = await tools.answer("check_child_activity", ["child": "Sam"])
            #expect(refused.isError && refused.text.hasPrefix("Not done: you are not a parent in any family"), "\(refused)")
            await router.shutdown()
        }
    }

    @Test("send_restriction_command with both text and command is refused, nothing sent")
    func textOrCommand() async throws {
        try await MCPHousehold.run { household, tools in
            let both = await tools.answer(
                "send_restriction_command", ["text": "Block all games for 2 hours", "command": ["action": "block_app", "apps": ["youtube"]]])
            #expect(both.isError && both.text == "give text or command, not both", "\(both)")
            let words = await tools.answer("send_restriction_command", ["text": "Block all games for 2 hours"])
            #expect(!words.isError && words.text.contains("\"status\":\"accepted\""), "\(words)")
            #expect(household.router.counters["accepted"] == 1, "only the words were acted on")
        }
    }

    @Test("an argument of the wrong type is refused, naming it and the type expected; a long unknown name is shown shortened")
    func argumentsReadStrictly() async throws {
        try await MCPHousehold.run { household, tools in
            let number = await tools.answer("get_device_status", ["child": 42])
            #expect(number.isError && number.text == "child must be a string (the child's name or device id), got a number", "\(number)")
            let since = await tools.answer("check_child_activity", ["child": "Sam", "since": 12345])
            #expect(since.isError && since.text == "since must be an RFC 3339 string, got a number", "\(since)")
            let command = await tools.answer("send_restriction_command", ["command": "shutdown"])
            #expect(command.isError && command.text == "command must be an object, got a string", "\(command)")
            let sent = await tools.answer("send_restriction_command", ["text": "Block all games for 2 hours", "child": ["Sam"]])
            #expect(sent.isError && sent.text.hasPrefix("child must be a string"), "\(sent)")
            let repeats = await tools.answer("schedule_timed_restriction", ["type": "bedtime", "start": "21:00", "end": "07:00", "repeat": true])
            #expect(repeats.isError && repeats.text == "repeat must be a string, got a boolean", "\(repeats)")

            let long = String(repeating: "x", count: 200_000)
            for tool in ["get_device_status", "check_child_activity", "send_restriction_command"] {
                let unknown = await tools.answer(tool, ["child": .string(long), "text": "Block all games for 2 hours"])
                #expect(unknown.isError && unknown.text == "no child named \(String(repeating: "x", count: 64))… in your family (children: Sam)", "\(tool): \(unknown.text.prefix(200))")
            }
            #expect(household.router.counters["accepted"] == 0, "nothing was acted on")
            let named = await tools.answer("send_restriction_command", ["text": "Block all games for 2 hours", "child": "Sam"])
            #expect(!named.isError && named.text.contains("\"status\":\"accepted\""), "\(named)")
            #expect(household.router.counters["accepted"] == 1)
        }
    }
}
