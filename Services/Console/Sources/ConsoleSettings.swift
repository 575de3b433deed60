import Foundation
import GuardianShared
import Logging
import MQTT

/// What the console reads once from its environment (the README's configuration table).
///
/// The console holds no broker password of its own: each parent signs in with theirs, and the
/// console connects as that parent for the session.
public struct ConsoleSettings: Sendable {
    /// The address the web server listens on (`GUARDIAN_CONSOLE_HOST`, loopback by default).
    public var host: String
    /// `GUARDIAN_CONSOLE_PORT`; `0` picks a free one.
    public var port: Int
    /// The broker the parents' connections go to.
    public var brokerURL: String
    public var brokerCAFile: String?
    public var topics: Topics
    /// A session with no request for this long is signed out (`GUARDIAN_CONSOLE_IDLE_MINUTES`).
    public var idleExpiry: Duration
    /// A child's device counts as online when one of its events arrived within this
    /// (`GUARDIAN_CONSOLE_ONLINE_MINUTES`).
    public var onlineWindow: Duration
    /// The address parents open (`GUARDIAN_CONSOLE_PUBLIC_URL`, e.g. `https://guardian.home:8443`):
    /// an `https` one marks the session cookie `Secure`; a form posted from any other origin is refused.
    public var publicURL: URL?
    /// The console is reached only through a proxy that terminates TLS and says so in
    /// `X-Forwarded-Proto` (compose's nginx): cookies are then `Secure` (`GUARDIAN_CONSOLE_BEHIND_TLS_PROXY`).
    public var behindTLSProxy: Bool
    /// A session whose broker connection stays down this long is closed (the parent's account was
    /// removed or its password changed: the broker refuses it).
    public var connectionGrace: Duration = .seconds(60)
    /// Map tiles under the family map, from a server the user chose (`GUARDIAN_CONSOLE_TILE_URL`);
    /// none by default.
    public var tiles: MapTiles?
    /// How long a privacy export or erase waits for every service's answer.
    public var privacyTimeout: Duration
    public var logLevel: Logger.Level

    public init(
        host: String = "127.0.0.1", port: Int = 8080, brokerURL: String = "mqtt://127.0.0.1:1883", brokerCAFile: String? = nil,
        topics: Topics = Topics(), idleExpiry: Duration = .seconds(30 * 60), onlineWindow: Duration = .seconds(10 * 60),
        publicURL: URL? = nil, behindTLSProxy: Bool = false, tiles: MapTiles? = nil, privacyTimeout: Duration = .seconds(15),
        logLevel: Logger.Level = .info
    ) {
        self.host = host
        self.port = port
        self.brokerURL = brokerURL
        self.brokerCAFile = brokerCAFile
        self.topics = topics
        self.idleExpiry = idleExpiry
        self.onlineWindow = onlineWindow
        self.publicURL = publicURL
        self.behindTLSProxy = behindTLSProxy
        self.tiles = tiles
        self.privacyTimeout = privacyTimeout
        self.logLevel = logLevel
    }

    /// Reads `GUARDIAN_CONSOLE_*` and the broker's `GUARDIAN_MQTT_URL`, `GUARDIAN_MQTT_CA_FILE`,
    /// `GUARDIAN_TOPIC_PREFIX` and `GUARDIAN_LOG_LEVEL`.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) throws(ConfigurationError) {
        let settings = SettingsReader(environment: environment)
        let value = settings.text
        let shared = try GuardianConfig(settings: settings)
        do {
            _ = try MQTTConfiguration(url: shared.mqttURL, clientId: "console")
        } catch {
            throw ConfigurationError(key: "GUARDIAN_MQTT_URL", reason: "\(error)")
        }
        var publicURL: URL?
        if let raw = value("GUARDIAN_CONSOLE_PUBLIC_URL") {
            guard let url = URL(string: raw), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil else {
                throw ConfigurationError(key: "GUARDIAN_CONSOLE_PUBLIC_URL", reason: "must be an http:// or https:// URL, got '\(raw)'")
            }
            publicURL = url
        }
        var tiles: MapTiles?
        if let raw = value("GUARDIAN_CONSOLE_TILE_URL") {
            guard let parsed = MapTiles(template: raw) else {
                throw ConfigurationError(key: "GUARDIAN_CONSOLE_TILE_URL", reason: "must be an http(s) URL with {z}, {x} and {y}, got '\(raw)'")
            }
            tiles = parsed
        }
        self.init(
            host: value("GUARDIAN_CONSOLE_HOST") ?? "127.0.0.1",
            port: try settings.integer("GUARDIAN_CONSOLE_PORT", default: 8080, in: 0...65535),
            brokerURL: shared.mqttURL, brokerCAFile: shared.mqttCAFile, topics: Topics(prefix: shared.topicPrefix),
            idleExpiry: .seconds(try settings.integer("GUARDIAN_CONSOLE_IDLE_MINUTES", default: 30, in: 1...(7 * 24 * 60)) * 60),
            onlineWindow: .seconds(try settings.integer("GUARDIAN_CONSOLE_ONLINE_MINUTES", default: 10, in: 1...(24 * 60)) * 60),
            publicURL: publicURL, behindTLSProxy: settings.flag("GUARDIAN_CONSOLE_BEHIND_TLS_PROXY"),
            tiles: tiles,
            privacyTimeout: .seconds(try settings.integer("GUARDIAN_CONSOLE_PRIVACY_TIMEOUT", default: 15, in: 1...600)),
            logLevel: shared.logLevel)
    }

    /// True when parents reach the console over TLS (directly or through a proxy).
    public var servedOverTLS: Bool { publicURL?.scheme?.lowercased() == "https" }

    /// The broker settings for one parent's session: their own credentials, a throwaway session.
    func mqttConfiguration(parent: String, password: String) throws(MQTTError) -> MQTTConfiguration {
        var configuration = try MQTTConfiguration(url: brokerURL, clientId: "console-\(parent)-\(SessionToken.make(bytes: 6))")
        configuration.username = parent
        configuration.password = password
        if let brokerCAFile {
            configuration.tlsCAFile = brokerCAFile
            configuration.useTLS = true
        }
        configuration.cleanStart = true
        configuration.sessionExpirySeconds = 0
        configuration.reconnectDelayMin = .milliseconds(100)
        configuration.reconnectDelayMax = .seconds(5)
        return configuration
    }
}
