import Foundation
import GuardianMCP
import GuardianShared
import Logging

// stdout carries the MCP protocol: every log line goes to stderr.
LoggingSystem.bootstrap(StreamLogHandler.standardError)
var logger = Logger(label: "guardian.mcp")
do {
    let config = try GuardianConfig()
    logger.logLevel = config.logLevel
    try await GuardianMCPServer.run(config: config, logger: logger)
} catch {
    logger.critical("guardian-mcp failed: \(error)")
    exit(1)
}
