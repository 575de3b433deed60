import Foundation
import GuardianShared
import Logging
import MCP
import ServiceLifecycle

/// `guardian-mcp`: an MCP server offering Guardian's parental tools to an assistant, on stdio or,
/// with `GUARDIAN_MCP_HTTP_PORT`, on Streamable HTTP.
public enum GuardianMCPServer {
    public static func run(config: GuardianConfig, logger: Logger) async throws {
        let bridge = try await ParentBridge(config: config, logger: logger)
        let tools = GuardianTools(bridge: bridge)
        if let http = try MCPSettings(settings: config.settings).http {
            let endpoint = MCPHTTPEndpoint(host: http.host, port: http.port, logger: logger) { await makeServer(tools: tools, parent: bridge.parent) }
            let group = ServiceGroup(services: [endpoint], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
            try await group.run()
        } else {
            let server = await makeServer(tools: tools, parent: bridge.parent)
            try await server.start(transport: StdioTransport(logger: logger))
            await server.waitUntilCompleted()
        }
        await bridge.close()
    }

    /// An MCP server with the four tools, acting through `tools`.
    static func makeServer(tools: GuardianTools, parent: String) async -> Server {
        let server = Server(
            name: "guardian", version: GuardianVersion.current,
            instructions: "Parental controls for the family of \(parent): restrict apps, check a child's device and activity.",
            capabilities: .init(tools: .init(listChanged: false)))
        await server.withMethodHandler(ListTools.self) { _ in .init(tools: GuardianTools.definitions) }
        await server.withMethodHandler(CallTool.self) { params in await tools.call(params.name, arguments: params.arguments) }
        return server
    }
}
