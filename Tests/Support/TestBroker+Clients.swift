import Foundation
import GuardianShared
import Logging
import MQTT

extension TestBroker {
    /// A connected client. On a secured broker, `user` names the credentials (default: the client id).
    public func connectedClient(
        _ clientId: String, user: String? = nil, cleanStart: Bool = true, will: MQTTOutgoing? = nil, logger: Logger = .quiet
    ) async throws -> MQTTClient {
        let client = try MQTTClient(configuration: configuration(clientId, user: user, cleanStart: cleanStart, will: will), logger: logger)
        try await client.connect(timeout: .seconds(60))
        return client
    }

    /// Whether the broker still keeps a session for `clientId` (read from CONNACK; the look leaves none behind).
    public func sessionPresent(clientId: String) async throws -> Bool {
        var configuration = configuration(clientId, cleanStart: false)
        configuration.sessionExpirySeconds = 0
        configuration.reconnects = false
        let client = try MQTTClient(configuration: configuration, logger: Logger(label: "session-look"))
        try await client.connect(timeout: .seconds(60))
        let present = client.sessionPresent ?? true
        await client.shutdown(flushTimeout: .zero)
        return present
    }

    public func configuration(_ clientId: String, user: String? = nil, cleanStart: Bool = true, will: MQTTOutgoing? = nil) -> MQTTConfiguration {
        var configuration = MQTTConfiguration(host: "127.0.0.1", port: port, clientId: clientId, cleanStart: cleanStart, will: will)
        // A clean start is a throwaway session: in MQTT 5 it would otherwise outlive the connection
        // (session expiry), and the broker would keep queueing for a client that is gone.
        if cleanStart { configuration.sessionExpirySeconds = 0 }
        configuration.reconnectDelayMin = .milliseconds(50)
        configuration.reconnectDelayMax = .milliseconds(500)
        if access == .secured {
            let name = user ?? clientId
            configuration.username = name
            configuration.password = password(for: name)
        }
        return configuration
    }

    /// The configuration a service reads from its environment, pointed at this broker.
    public func serviceConfig(service: String, dataDirectory: URL, instance: String = "test", extra: [String: String] = [:]) throws -> GuardianConfig {
        var environment = [
            "GUARDIAN_MQTT_URL": url,
            "GUARDIAN_DATA_DIR": dataDirectory.path,
            "GUARDIAN_INSTANCE_ID": instance,
            "GUARDIAN_STATS_INTERVAL": "1",
        ]
        if access == .secured {
            environment["GUARDIAN_MQTT_USERNAME"] = service
            environment["GUARDIAN_MQTT_PASSWORD"] = password(for: service)
        }
        environment.merge(extra) { $1 }
        return try GuardianConfig(environment: environment)
    }
}

extension Logger {
    /// A logger that prints warnings and worse (set `GUARDIAN_TEST_LOG=debug` to see more).
    public static var quiet: Logger {
        var logger = Logger(label: "guardian.test")
        logger.logLevel = Logger.Level(rawValue: ProcessInfo.processInfo.environment["GUARDIAN_TEST_LOG"] ?? "") ?? .error
        return logger
    }
}

/// A temporary directory removed on release.
public final class TemporaryDirectory: Sendable {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("guardian-test-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
