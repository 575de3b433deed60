import Foundation
@testable import GuardianMCP
import MCP
import Testing

@Suite("guardian-mcp's tool schemas")
struct ToolDefinitionTests {
    static func tool(_ name: String) throws -> Tool { try #require(GuardianTools.definitions.first { $0.name == name }) }
    static func properties(of schema: Value?) -> [String: Value] { schema?.objectValue?["properties"]?.objectValue ?? [:] }

    @Test("the command's schema declares every field its description lists, condition and schedule among them")
    func commandFieldsDeclared() throws {
        let command = try #require(Self.properties(of: try Self.tool("send_restriction_command").inputSchema)["command"])
        let description = try #require(command.objectValue?["description"]?.stringValue)
        let listed = try #require(description.firstMatch(of: /\{action: [^}]*\}/)).output
        let optional = listed.matches(of: /([A-Za-z]+)\?/).map { String($0.output.1) }
        #expect(optional == ["durationSeconds", "apps", "categories", "message", "until", "condition", "schedule"])
        let declared = Self.properties(of: command)
        for field in optional + ["action"] {
            #expect(declared[field]?.objectValue?["description"]?.stringValue != nil || field == "action", "\(field) declared, with a description")
        }
        let schedule = Self.properties(of: declared["schedule"])
        #expect(Set(schedule.keys) == ["type", "start", "end", "repeat"])
    }

    @Test("child is described in every tool; the schedule's repeat defaults to none, a one-off")
    func childAndRepeatDescribed() throws {
        for tool in GuardianTools.definitions {
            let child = Self.properties(of: tool.inputSchema)["child"]
            #expect(child?.objectValue?["description"]?.stringValue?.contains("name or device id") == true, "\(tool.name)")
        }
        let schedule = try Self.tool("schedule_timed_restriction")
        let repeatField = try #require(Self.properties(of: schedule.inputSchema)["repeat"]?.objectValue)
        #expect(repeatField["default"]?.stringValue == "none")
        #expect(repeatField["description"]?.stringValue?.hasPrefix("none (the default): once") == true)
        #expect(schedule.description?.contains("One-off unless `repeat` says otherwise") == true)
    }
}
