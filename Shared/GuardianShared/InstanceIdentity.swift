import Foundation
import Glibc

/// A service instance's id, stable across restarts and container recreation: `GUARDIAN_INSTANCE_ID`
/// when set, otherwise the id kept in `{GUARDIAN_DATA_DIR}/{service}.instance`, made at random on
/// first start. A data directory belongs to one process (its store is locked), so two replicas never
/// share an id; two processes starting on one directory at once read the same file, and the second
/// then stops on the store's lock.
public enum InstanceIdentity {
    /// The file that keeps the id of `service`.
    public static func file(service: String, dataDirectory: String) -> String {
        URL(fileURLWithPath: dataDirectory).appendingPathComponent("\(service).instance").path
    }

    /// The id the service runs under; writes a new one on first start (a `StorageError` when it cannot).
    public static func resolve(service: String, config: GuardianConfig) throws -> String {
        if let explicit = explicit(config) { return explicit }
        let path = file(service: service, dataDirectory: config.dataDirectory)
        if let id = try stored(at: path) { return id }
        try ServiceStore.prepareDirectory(config.dataDirectory, for: path)
        // Written aside, then linked into place: link(2) fails if another process got there first,
        // so every process reads one complete file.
        let id = String(UUID().uuidString.lowercased().filter(\.isHexDigit).prefix(12))
        let draft = "\(path).\(getpid()).\(UUID().uuidString.prefix(8))"
        do {
            try Data((id + "\n").utf8).write(to: URL(fileURLWithPath: draft))
        } catch {
            throw StorageError.cannotOpen(path: path, reason: "cannot store a new instance id: \(error.localizedDescription)", code: nil)
        }
        defer { unlink(draft) }
        if link(draft, path) != 0 && errno != EEXIST {
            throw StorageError.cannotOpen(path: path, reason: "cannot store a new instance id: \(StorageError.osError(errno))", code: nil)
        }
        guard let kept = try stored(at: path) else {
            throw ConfigurationError(key: "GUARDIAN_INSTANCE_ID", reason: "cannot read the instance id stored in \(path)")
        }
        return kept
    }

    /// The id the service runs under, without writing anything (for `guardian health`): nil before
    /// the service's first start.
    public static func current(service: String, config: GuardianConfig) -> String? {
        explicit(config) ?? (try? stored(at: file(service: service, dataDirectory: config.dataDirectory))) ?? nil
    }

    private static func explicit(_ config: GuardianConfig) -> String? {
        config.settings.text("GUARDIAN_INSTANCE_ID") == nil ? nil : config.instanceId
    }

    private static func stored(at path: String) throws(ConfigurationError) -> String? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        let id = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard Identifier.isValid(id) else {
            throw ConfigurationError(key: "GUARDIAN_INSTANCE_ID", reason: "\(path) must hold an id matching [A-Za-z0-9_-]{1,64}, got '\(id.prefix(80))'")
        }
        return id
    }
}
