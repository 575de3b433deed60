import Foundation
import Logging
import ServiceLifecycle

/// The body of every service's `main()` (its executable's and `guardian-all`'s): read the
/// environment, build the service, run it in a `ServiceGroup` that shuts down gracefully on SIGTERM
/// and SIGINT. A store that cannot be opened (at start) or written (while running) stops the process
/// with status 74 (see `StorageFailure`).
public enum ServiceMain {
    public static func run(name: String, makeService: (GuardianConfig, Logger) throws -> any Service) async -> Never {
        var logger = Logger(label: "guardian.\(name)")
        var config: GuardianConfig
        do {
            config = try GuardianConfig()
            config.instanceId = try InstanceIdentity.resolve(service: name, config: config)
        } catch let error as StorageError {
            logger.critical("\(name) cannot start: \(error)")
            exit(StorageFailure.exitCode)
        } catch {
            logger.critical("bad configuration: \(error)")
            exit(2)
        }
        logger.logLevel = config.logLevel
        logger.debug("settings", metadata: ["settings": "\(config.settings.debugDescription)"])
        StorageFailure.install { [logger, config] error in StorageFailure.halt(service: name, config: config, logger: logger, error: error) }
        do {
            let service = try makeService(config, logger)
            let group = ServiceGroup(
                configuration: .init(services: [.init(service: service)], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
            try await group.run()
            exit(0)
        } catch let error as StorageError {
            logger.critical("\(name) cannot start: \(error)")
            exit(StorageFailure.exitCode)
        } catch {
            logger.critical("\(name) failed: \(error)")
            exit(1)
        }
    }
}
