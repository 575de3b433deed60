import Foundation
import GuardianShared
import Logging

extension Console {
    /// The `console` program: serves the family console until SIGTERM or SIGINT; exits 2 on a bad
    /// configuration, 1 on any other failure.
    public static func main() async -> Never {
        var logger = Logger(label: "guardian.console")
        do {
            let settings = try ConsoleSettings()
            logger.logLevel = settings.logLevel
            try await Console(settings: settings, logger: logger).run()
            exit(0)
        } catch let error as ConfigurationError {
            logger.critical("bad configuration: \(error)")
            exit(2)
        } catch {
            logger.critical("console failed: \(error)")
            exit(1)
        }
    }
}
