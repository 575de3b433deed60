import Foundation
@testable import GuardianCommandRouter
@testable import GuardianMCP
import GuardianShared
import GuardianTestSupport
import MCP
import Testing

/// A secured broker with one family (parent-alex, Sam on tablet-sam) and the command-router
/// running in-process: what guardian-mcp acts on, as a process or in-process.
struct MCPHousehold {
    let broker: TestBroker
    let data: TemporaryDirectory
    let router: CommandRouterService
    let task: Task<Void, any Error>

    init() async throws {
        broker = try TestBroker(access: .secured)
        data = try TemporaryDirectory()
        let admin = try await broker.connectedClient("admin")
        try await admin.publish(
            "guardian/families/alex",
            payload: GuardianJSON.encode(Family(parents: ["parent-alex"], children: [.init(deviceId: "tablet-sam", name: "Sam")])), retain: true)
        let router = try CommandRouterService(config: try broker.serviceConfig(service: "command-router", dataDirectory: data.url), logger: .quiet)
        self.router = router
        task = try await startInProcess(router, name: "command-router", observer: admin)
        await admin.shutdown()
    }

    /// What guardian-mcp needs to act as parent-alex over this broker.
    var environment: [String: String] {
        [
            "GUARDIAN_MQTT_URL": broker.url, "GUARDIAN_MQTT_USERNAME": "guardian-mcp",
            "GUARDIAN_MQTT_PASSWORD": broker.password(for: "guardian-mcp") ?? "", "GUARDIAN_MCP_PARENT": "parent-alex",
            "GUARDIAN_LOG_LEVEL": "error",
        ]
    }

    /// guardian-mcp's tools in this process, connected as parent-alex.
    func bridge() async throws -> ParentBridge {
        try await ParentBridge(config: try GuardianConfig(environment: environment), logger: .quiet)
    }

    func stop() async {
        task.cancel()
        _ = try? await task.value
        broker.stop()
    }

    /// Runs `body` with a new household, and stops it whether `body` passes or throws.
    static func with(_ body: (MCPHousehold) async throws -> Void) async throws {
        let household = try await MCPHousehold()
        let outcome: Result<Void, any Error>
        do {
            try await body(household)
            outcome = .success(())
        } catch {
            outcome = .failure(error)
        }
        await household.stop()
        try outcome.get()
    }

    /// Runs `body` with a new household and its tools, and stops both whether `body` passes or throws.
    static func run(_ body: (MCPHousehold, GuardianTools) async throws -> Void) async throws {
        try await with { household in
            let bridge = try await household.bridge()
            let outcome: Result<Void, any Error>
            do {
                try await body(household, GuardianTools(bridge: bridge))
                outcome = .success(())
            } catch {
                outcome = .failure(error)
            }
            await bridge.close()
            try outcome.get()
        }
    }
}

/// A tool's answer, as an assistant reads it.
struct ToolAnswer {
    let isError: Bool
    let text: String
}

extension GuardianTools {
    /// Calls a tool as an MCP client would.
    func answer(_ name: String, _ arguments: [String: Value] = [:]) async -> ToolAnswer {
        let result = await call(name, arguments: arguments)
        let text = result.content.map { content -> String in
            if case .text(let text, _, _) = content { return text }
            return ""
        }.joined()
        return ToolAnswer(isError: result.isError ?? false, text: text)
    }
}
