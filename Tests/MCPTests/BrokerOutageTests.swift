import Foundation
@testable import GuardianMCP
import GuardianShared
import GuardianTestSupport
import MCP
import Synchronization
import Testing

@Suite("guardian-mcp while the broker is down")
struct BrokerOutageTests {
    @Test("get_device_status: an error saying the broker is unreachable, never an empty status; the real one once it is back")
    func statusWhileDown() async throws {
        try await MCPHousehold.run { household, tools in
            #expect(await eventually(.seconds(120)) { !tools.bridge.children.isEmpty }, "the family arrives")
            let sent = await tools.answer("send_restriction_command", ["text": "Block all games for 2 hours"])
            #expect(!sent.isError && sent.text.contains("\"status\":\"accepted\""), "\(sent)")
            let before = await tools.answer("get_device_status", ["child": "Sam"])
            #expect(!before.isError && before.text.contains("\"policy\":{"), "\(before)")

            household.broker.stop()
            let down = await tools.answer("get_device_status", ["child": "Sam"])
            #expect(down.isError && down.text.contains("broker is unreachable"), "\(down)")
            #expect(!down.text.contains("null"))

            try household.broker.start()
            var after = ToolAnswer(isError: true, text: "")
            #expect(await eventually(.seconds(120)) {
                after = await tools.answer("get_device_status", ["child": "Sam"])
                return !after.isError
            })
            #expect(after.text.contains("\"policy\":{") && after.text.contains("\"command\":{"), "the block is read again: \(after)")
        }
    }

    @Test("send_restriction_command and check_child_activity: an error while the broker is down, and nothing sent once it is back")
    func commandsWhileDown() async throws {
        try await MCPHousehold.run { household, tools in
            #expect(await eventually(.seconds(120)) { !tools.bridge.children.isEmpty }, "the family arrives")
            household.broker.stop()
            let finished = Atomic(false)
            let calls = Task {
                let answers = (
                    await tools.answer("send_restriction_command", ["text": "Block all games for 2 hours"]),
                    await tools.answer("check_child_activity", ["child": "Sam"])
                )
                finished.store(true, ordering: .sequentiallyConsistent)
                return answers
            }
            // A ceiling for answers that must not wait for the broker, not a measure of speed.
            let answeredWhileDown = await eventually(.seconds(90)) { finished.load(ordering: .sequentiallyConsistent) }
            #expect(answeredWhileDown, "both tools answer while the broker is still down")
            try household.broker.start()
            let (sent, activity) = await calls.value
            #expect(sent.isError && sent.text.contains("broker is unreachable") && sent.text.contains("nothing was sent"), "\(sent)")
            #expect(activity.isError && activity.text.contains("broker is unreachable"), "\(activity)")

            // Once guardian-mcp is connected again, a new command is the only one the router ever gets.
            #expect(await eventually(.seconds(120)) { await !tools.answer("get_device_status", ["child": "Sam"]).isError })
            let later = await tools.answer("send_restriction_command", ["text": "Block YouTube for 1 hour"])
            #expect(!later.isError && later.text.contains("\"status\":\"accepted\""), "\(later)")
            let status = await tools.answer("get_device_status", ["child": "Sam"])
            #expect(status.text.contains("youtube") && !status.text.contains("games"), "only the later command is in force: \(status)")
            #expect(household.router.counters["accepted"] == 1)
        }
    }
}
