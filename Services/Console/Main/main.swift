import Foundation
import GuardianConsole
import GuardianShared
import Logging

var logger = Logger(label: "guardian.console")
do {
    let settings = try ConsoleSettings()
    logger.logLevel = settings.logLevel
    try await Console(settings: settings, logger: logger).run()
} catch let error as ConfigurationError {
    logger.critical("bad configuration: \(error)")
    exit(2)
} catch {
    logger.critical("console failed: \(error)")
    exit(1)
}
