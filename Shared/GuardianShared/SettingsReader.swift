import Configuration
import Foundation

/// Where every Guardian setting comes from: the environment, read through swift-configuration
/// (`GUARDIAN_MQTT_URL` is its key `guardian.mqtt.url`). Passwords and API keys are marked secret,
/// so the library redacts them wherever it prints a value. Each getter checks what it reads and
/// names the variable in its error, which stops a service at start with one clear line.
public struct SettingsReader: Sendable, CustomDebugStringConvertible {
    private let provider: EnvironmentVariablesProvider
    private let reader: ConfigReader

    /// Only `GUARDIAN_*` variables are read.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        provider = EnvironmentVariablesProvider(
            environmentVariables: environment.filter { $0.key.hasPrefix("GUARDIAN_") },
            secretsSpecifier: .dynamic { key, _ in SettingsReader.isSecret(key) })
        reader = ConfigReader(provider: provider)
    }

    /// Every variable and its value, secrets redacted (logged at debug level when a service starts).
    public var debugDescription: String { provider.debugDescription }

    static func isSecret(_ variable: String) -> Bool { variable.hasSuffix("_PASSWORD") || variable.hasSuffix("_API_KEY") }

    private static func shown(_ variable: String, _ raw: String) -> String { isSecret(variable) ? "<redacted>" : raw }

    /// The variable's text, trimmed; nil when it is unset or blank.
    public func text(_ variable: String) -> String? {
        let key = ConfigKey(variable.lowercased().split(separator: "_").map(String.init))
        guard let raw = reader.string(forKey: key, isSecret: Self.isSecret(variable)) else { return nil }
        let trimmed = raw.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// A whole number in `range`, or `fallback` when unset.
    public func integer(_ variable: String, default fallback: Int, in range: ClosedRange<Int>) throws(ConfigurationError) -> Int {
        guard let raw = text(variable) else { return fallback }
        guard let value = Int(raw), range.contains(value) else {
            throw ConfigurationError(key: variable, reason: "must be a whole number in \(range.lowerBound)...\(range.upperBound), got '\(Self.shown(variable, raw))'")
        }
        return value
    }

    /// A number in `range`, or nil when unset.
    public func number(_ variable: String, in range: ClosedRange<Double>) throws(ConfigurationError) -> Double? {
        guard let raw = text(variable) else { return nil }
        guard let value = Double(raw), value.isFinite, range.contains(value) else {
            throw ConfigurationError(key: variable, reason: "must be a number in \(range.lowerBound)...\(range.upperBound), got '\(Self.shown(variable, raw))'")
        }
        return value
    }

    /// `1`, `true` or `yes` (any case) turn a switch on; unset is off.
    public func flag(_ variable: String) -> Bool {
        ["1", "true", "yes"].contains(text(variable)?.lowercased() ?? "")
    }
}
