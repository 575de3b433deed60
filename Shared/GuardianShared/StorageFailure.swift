import Dispatch
import Foundation
import Logging
import MQTT
import Synchronization

/// What a service process does when its store cannot be written while it runs (disk full, read-only,
/// I/O error): it stops, rather than acknowledging a message whose effect it could not keep.
///
/// Every write goes through `ServiceStore.write`, which hands such a failure to the handler installed
/// here before anything else happens. `ServiceMain` installs `halt`: one line on stderr, a best-effort
/// report on `guardian/errors/{service}` over a separate connection, then exit with status 74
/// (`EX_IOERR`) without returning, so the MQTT message being handled is never acknowledged and the
/// broker redelivers it (with everything queued behind it) when the service is back. Without a handler
/// (tests running a service in-process, the CLI) the error is thrown to the caller as before.
public enum StorageFailure {
    /// The exit status of a service that stops because of its storage (at start or while running).
    public static let exitCode: Int32 = 74

    /// Seconds the report may take to connect: milliseconds on a healthy machine, seconds on a
    /// loaded one; an unreachable broker delays the exit by about this much.
    static let reportCeilingSeconds = 10

    private static let handler = Mutex<(@Sendable (StorageError) -> Void)?>(nil)
    private static let halting = Atomic<Bool>(false)

    /// Sets (or with nil, removes) the process-wide handler. The handler must not return.
    public static func install(_ newHandler: (@Sendable (StorageError) -> Never)?) {
        let wrapped: (@Sendable (StorageError) -> Void)?
        if let newHandler {
            wrapped = { error in newHandler(error) }
        } else {
            wrapped = nil
        }
        handler.withLock { $0 = wrapped }
    }

    /// Full, read-only, I/O error, corrupt, cannot open, not a database: the store is unusable (as
    /// opposed to an error of one statement, e.g. a constraint).
    public static func isStorageFailure(_ extendedCode: Int32) -> Bool {
        [8, 10, 11, 13, 14, 26].contains(extendedCode & 0xFF)
    }

    /// Called by `ServiceStore` on a storage failure; returns only when no handler is installed.
    static func occurred(_ error: StorageError) {
        guard let handle = handler.withLock({ $0 }) else { return }
        handle(error)
    }

    /// Stops the process because of `error` (see the type's description). Only the first caller
    /// reports and exits; any other thread that fails meanwhile waits here, acknowledging nothing.
    public static func halt(service: String, config: GuardianConfig, logger: Logger, error: StorageError) -> Never {
        guard halting.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged else {
            while true { sleep(60) }
        }
        logger.critical(
            "\(service) stopping: \(error); messages not yet handled stay with the broker and are redelivered after a restart")
        let reported = DispatchSemaphore(value: 0)
        Task.detached {
            defer { reported.signal() }
            await report(service: service, config: config, error: error)
        }
        _ = reported.wait(timeout: .now() + .seconds(reportCeilingSeconds + 2))
        fflush(nil)
        _exit(exitCode)
    }

    /// Publishes an `ErrorReport` on `guardian/errors/{service}` over a short-lived connection of its
    /// own: the service's connection may already have queued the acknowledgement of the message being
    /// handled, which must not reach the broker.
    private static func report(service: String, config: GuardianConfig, error: StorageError) async {
        guard var configuration = try? config.mqttConfiguration(service: service, will: nil) else { return }
        configuration.clientId += "-storage-failure"
        configuration.cleanStart = true
        configuration.sessionExpirySeconds = 0
        var quiet = Logger(label: "guardian.\(service).storage-failure")
        quiet.logLevel = .critical
        guard let client = try? MQTTClient(configuration: configuration, logger: quiet) else { return }
        // No input topic: the failure is the service's, not a payload's.
        let report = ErrorReport(service: service, topic: "", reason: "storage failure, service stopped: \(error)", payload: Data())
        do {
            try await client.connect(timeout: .seconds(reportCeilingSeconds))
            try await client.publish(MQTTOutgoing(topic: Topics(prefix: config.topicPrefix).errors(service), payload: GuardianJSON.encode(report)))
        } catch {}
        await client.shutdown(flushTimeout: .seconds(1))
    }
}
