import GuardianShared

/// guardian-mcp's own settings, read once at start.
public struct MCPSettings: Sendable, Equatable {
    /// The parent the assistant acts as (`GUARDIAN_MCP_PARENT`, default `parent-alex`).
    public var parent: String
    /// Streamable HTTP on this address instead of stdio (`GUARDIAN_MCP_HTTP_PORT`, 0 picks a free
    /// port; `GUARDIAN_MCP_HTTP_HOST`, default 127.0.0.1); nil for stdio.
    public var http: (host: String, port: Int)? {
        httpPort.map { (httpHost, $0) }
    }
    var httpHost: String
    var httpPort: Int?

    public init(settings: SettingsReader) throws(ConfigurationError) {
        parent = settings.text("GUARDIAN_MCP_PARENT") ?? "parent-alex"
        guard Identifier.isValid(parent) else {
            throw ConfigurationError(key: "GUARDIAN_MCP_PARENT", reason: "must match [A-Za-z0-9_-]{1,64}, got '\(parent)'")
        }
        httpHost = settings.text("GUARDIAN_MCP_HTTP_HOST") ?? "127.0.0.1"
        httpPort = settings.text("GUARDIAN_MCP_HTTP_PORT") == nil ? nil : try settings.integer("GUARDIAN_MCP_HTTP_PORT", default: 0, in: 0...65535)
    }
}
