import Foundation
import GuardianShared
import Logging
import MQTT

/// The CLI's MQTT connection, configured like a service (user `guardian-cli` unless overridden).
enum BusConnection {
    static func connect(clientSuffix: String, environment: [String: String]? = nil) async throws -> (MQTTClient, Topics) {
        let (client, topics, _) = try await connectAsUser(clientSuffix: clientSuffix, environment: environment)
        return (client, topics)
    }

    /// Also returns the user the CLI connected as (the requester of privacy requests). `environment`:
    /// an ``environment()`` already read (it says on standard error which run it found).
    static func connectAsUser(clientSuffix: String, environment: [String: String]? = nil) async throws -> (MQTTClient, Topics, String) {
        let config = try GuardianConfig(environment: environment ?? Self.environment())
        var logger = Logger(label: "guardian.cli")
        // Retries and lost connections end in the error thrown, which says why.
        logger.logLevel = .error
        var mqtt = try config.mqttConfiguration(service: "guardian-cli", will: nil)
        mqtt.clientId = "guardian-cli-\(clientSuffix)-\(UUID().uuidString.prefix(8))"
        mqtt.cleanStart = true
        mqtt.sessionExpirySeconds = 0
        let client = try MQTTClient(configuration: mqtt, logger: logger)
        let user = mqtt.username ?? "guardian-cli"
        do {
            try await client.connect(timeout: .seconds(10))
        } catch {
            await client.shutdown()
            if case .connectionRefused = error {
                throw CLIFailure("\(error) for user \(user): check GUARDIAN_MQTT_USERNAME and GUARDIAN_MQTT_PASSWORD (or GUARDIAN_MQTT_PASSWORD_FILE)")
            }
            throw error
        }
        return (client, Topics(prefix: config.topicPrefix), user)
    }

    /// The process's environment, completed from the `make run` of the checkout it runs in when it
    /// names no broker (`GUARDIAN_MQTT_URL` unset); says so on standard error.
    static func environment() -> [String: String] {
        let environment = ProcessInfo.processInfo.environment
        let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        guard let run = LocalRun.find(from: here), let local = run.settings(over: environment, defaultUser: "guardian-cli") else { return environment }
        let (settings, user) = local
        let password = settings["GUARDIAN_MQTT_PASSWORD_FILE"].map { " with the password in \($0)" } ?? ""
        FileHandle.standardError.write(Data("guardian: \(run.url) (make run in \(run.folder.deletingLastPathComponent().path)) as \(user)\(password)\n".utf8))
        return settings
    }
}
