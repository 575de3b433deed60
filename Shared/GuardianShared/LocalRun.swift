import Foundation

/// The broker a `make run` started in a checkout: `scripts/run-local.sh` writes `.run/connection`
/// (`url=…`) while it runs, next to the generated passwords in `.run/secrets/`. The CLI run anywhere
/// in that checkout connects with it when the environment names no broker of its own.
public struct LocalRun: Sendable, Equatable {
    /// The `.run` folder.
    public var folder: URL
    public var url: String
    /// The instance id its services run as (`instance=…`; `local` unless set).
    public var instance: String? = nil

    /// The nearest `.run/connection` in `directory` or a folder above it.
    public static func find(from directory: URL) -> LocalRun? {
        var folder = directory.standardizedFileURL
        while true {
            let run = folder.appendingPathComponent(".run")
            if let text = try? String(contentsOf: run.appendingPathComponent("connection"), encoding: .utf8),
                let url = text.split(separator: "\n").first(where: { $0.hasPrefix("url=") })?.dropFirst(4), !url.isEmpty
            {
                let instance = text.split(separator: "\n").first(where: { $0.hasPrefix("instance=") })?.dropFirst(9)
                return LocalRun(folder: run, url: String(url).trimmingCharacters(in: .whitespaces),
                                instance: instance.map { String($0).trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 })
            }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { return nil }
            folder = parent
        }
    }

    /// What the connection settings become with this run, and the user they connect as; nil when
    /// `environment` sets `GUARDIAN_MQTT_URL` (explicit settings win). The user is
    /// `GUARDIAN_MQTT_USERNAME`, else `defaultUser`; their password, unless the environment gives
    /// one, is the one `make run` generated for them.
    public func settings(over environment: [String: String], defaultUser: String) -> (environment: [String: String], user: String)? {
        let value = SettingsReader(environment: environment).text
        guard value("GUARDIAN_MQTT_URL") == nil else { return nil }
        var result = environment
        result["GUARDIAN_MQTT_URL"] = url
        let user = value("GUARDIAN_MQTT_USERNAME") ?? defaultUser
        result["GUARDIAN_MQTT_USERNAME"] = user
        if value("GUARDIAN_INSTANCE_ID") == nil, let instance { result["GUARDIAN_INSTANCE_ID"] = instance }
        let secret = folder.appendingPathComponent("secrets").appendingPathComponent(user).path
        if value("GUARDIAN_MQTT_PASSWORD") == nil, value("GUARDIAN_MQTT_PASSWORD_FILE") == nil, Identifier.isValid(user),
            FileManager.default.isReadableFile(atPath: secret)
        {
            result["GUARDIAN_MQTT_PASSWORD_FILE"] = secret
        }
        return (result, user)
    }
}
