import Foundation
@testable import GuardianMCP
import GuardianShared
import GuardianTestSupport
import MCP
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
}
