import Foundation
import Logging
import MQTT

/// Settings every service reads from the environment (the README's configuration table).
public struct GuardianConfig: Sendable {
    public var mqttURL: String
    public var mqttUsername: String?
    public var mqttPassword: String?
    public var mqttCAFile: String?
    public var dataDirectory: String
    public var topicPrefix: String
    public var instanceId: String
    public var shard: Shard
    public var logLevel: Logger.Level
    public var maxPayloadBytes: Int
    public var statsInterval: Duration
    public var sessionExpirySeconds: UInt32
    /// Where these and every service's own settings are read from (one typed value per service).
    public let settings: SettingsReader

    /// Reads `GUARDIAN_*` variables; unset ones take their documented defaults.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) throws(ConfigurationError) {
        try self.init(settings: SettingsReader(environment: environment))
    }

    public init(settings: SettingsReader) throws(ConfigurationError) {
        self.settings = settings
        let value = settings.text
        mqttURL = value("GUARDIAN_MQTT_URL") ?? "mqtt://127.0.0.1:1883"
        mqttUsername = value("GUARDIAN_MQTT_USERNAME")
        mqttPassword = value("GUARDIAN_MQTT_PASSWORD")
        if mqttPassword == nil, let file = value("GUARDIAN_MQTT_PASSWORD_FILE") {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8),
                case let password = text.trimmingCharacters(in: .whitespacesAndNewlines), !password.isEmpty
            else {
                throw ConfigurationError(key: "GUARDIAN_MQTT_PASSWORD_FILE", reason: "cannot read a password from '\(file)'")
            }
            mqttPassword = password
        }
        mqttCAFile = value("GUARDIAN_MQTT_CA_FILE")
        dataDirectory = value("GUARDIAN_DATA_DIR") ?? "./data"
        topicPrefix = value("GUARDIAN_TOPIC_PREFIX") ?? "guardian"
        guard topicPrefix.split(separator: "/").allSatisfy({ Identifier.isValid($0) }) else {
            throw ConfigurationError(key: "GUARDIAN_TOPIC_PREFIX", reason: "must be topic levels of [A-Za-z0-9_-], got '\(topicPrefix)'")
        }
        instanceId = value("GUARDIAN_INSTANCE_ID") ?? GuardianConfig.defaultInstanceId()
        guard Identifier.isValid(instanceId) else {
            throw ConfigurationError(key: "GUARDIAN_INSTANCE_ID", reason: "must match [A-Za-z0-9_-]{1,64}, got '\(instanceId)'")
        }
        let shardText = value("GUARDIAN_SHARD") ?? "0/1"
        guard let shard = Shard(shardText) else {
            throw ConfigurationError(key: "GUARDIAN_SHARD", reason: "must be k/n with 0 <= k < n, got '\(shardText)'")
        }
        self.shard = shard
        let level = value("GUARDIAN_LOG_LEVEL") ?? "info"
        guard let parsed = Logger.Level(rawValue: level.lowercased()) else {
            throw ConfigurationError(key: "GUARDIAN_LOG_LEVEL", reason: "must be trace, debug, info, notice, warning, error or critical")
        }
        logLevel = parsed
        maxPayloadBytes = try settings.integer("GUARDIAN_MAX_PAYLOAD_BYTES", default: 256 * 1024, in: 1024...(64 * 1024 * 1024))
        statsInterval = .seconds(try settings.integer("GUARDIAN_STATS_INTERVAL", default: 10, in: 1...3600))
        sessionExpirySeconds = UInt32(try settings.integer("GUARDIAN_SESSION_EXPIRY", default: 7 * 24 * 3600, in: 0...Int(UInt32.max)))
    }

    /// The MQTT settings of one service: its own credentials, a stable client id, a persistent session.
    public func mqttConfiguration(service: String, will: MQTTOutgoing?) throws(ConfigurationError) -> MQTTConfiguration {
        var configuration: MQTTConfiguration
        do {
            configuration = try MQTTConfiguration(url: mqttURL, clientId: "\(service)-\(instanceId)")
        } catch {
            throw ConfigurationError(key: "GUARDIAN_MQTT_URL", reason: "\(error)")
        }
        configuration.username = mqttUsername ?? configuration.username ?? service
        configuration.password = mqttPassword ?? configuration.password
        if let ca = mqttCAFile {
            configuration.tlsCAFile = ca
            configuration.useTLS = true
        }
        configuration.cleanStart = false
        configuration.sessionExpirySeconds = sessionExpirySeconds
        configuration.will = will
        return configuration
    }

    static func defaultInstanceId() -> String {
        let host = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "local"
        let cleaned = String(host.unicodeScalars.map { Identifier.isAllowed(UInt8(truncatingIfNeeded: $0.value)) && $0.isASCII ? Character($0) : "-" }.prefix(64))
        return cleaned.isEmpty ? "local" : cleaned
    }
}

/// A configuration value that cannot be used.
public struct ConfigurationError: Error, CustomStringConvertible, Sendable {
    public var key: String
    public var reason: String

    public init(key: String, reason: String) {
        self.key = key
        self.reason = reason
    }

    public var description: String { "\(key) \(reason)" }
}
