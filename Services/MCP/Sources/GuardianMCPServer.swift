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
        if let http = try httpSettings(config) {
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

    /// `GUARDIAN_MCP_HTTP_PORT` (0 picks a free port) and `GUARDIAN_MCP_HTTP_HOST` (default 127.0.0.1); nil for stdio.
    static func httpSettings(_ config: GuardianConfig) throws -> (host: String, port: Int)? {
        guard let text = config.environment["GUARDIAN_MCP_HTTP_PORT"], !text.isEmpty else { return nil }
        guard let port = Int(text), (0...65535).contains(port) else {
            throw ConfigurationError(key: "GUARDIAN_MCP_HTTP_PORT", reason: "must be a port number, got '\(text)'")
        }
        let host = config.environment["GUARDIAN_MCP_HTTP_HOST"].flatMap { $0.isEmpty ? nil : $0 } ?? "127.0.0.1"
        return (host, port)
    }
}
