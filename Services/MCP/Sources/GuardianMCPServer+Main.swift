import Foundation
import GuardianShared
import Logging

extension GuardianMCPServer {
    /// The `guardian-mcp` program: serves MCP until its client leaves (stdio) or SIGTERM (HTTP);
    /// exits 1 on a failure. stdout carries the protocol: every log line goes to stderr.
    public static func main() async -> Never {
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        var logger = Logger(label: "guardian.mcp")
        do {
            let config = try GuardianConfig()
            logger.logLevel = config.logLevel
            try await run(config: config, logger: logger)
            exit(0)
        } catch {
            logger.critical("guardian-mcp failed: \(error)")
            exit(1)
        }
    }
}
