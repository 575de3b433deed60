import Foundation
import GuardianShared
import Logging
import MCP

/// `guardian-mcp`: an MCP server on stdio offering Guardian's parental tools to an assistant.
public enum GuardianMCPServer {
    public static func run(config: GuardianConfig, logger: Logger) async throws {
        let bridge = try await ParentBridge(config: config, logger: logger)
        let tools = GuardianTools(bridge: bridge)
        let server = Server(
            name: "guardian", version: GuardianVersion.current,
            instructions: "Parental controls for the family of \(bridge.parent): restrict apps, check a child's device and activity.",
            capabilities: .init(tools: .init(listChanged: false)))
        await server.withMethodHandler(ListTools.self) { _ in .init(tools: GuardianTools.definitions) }
        await server.withMethodHandler(CallTool.self) { params in await tools.call(params.name, arguments: params.arguments) }
        try await server.start(transport: StdioTransport(logger: logger))
        await server.waitUntilCompleted()
        await bridge.close()
    }
}
