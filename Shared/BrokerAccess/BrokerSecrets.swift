import Foundation

/// The folder of generated passwords: one file per account, named after it, readable by its owner only.
///
/// `make run` keeps it in `.run/secrets/`, docker compose in the `secrets` volume, each test broker
/// in its own temporary folder. Nothing in git is a password.
public struct BrokerSecrets: Sendable {
    public let directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    /// The stored password of `id`, or nil.
    public func password(for id: String) -> String? {
        guard DynamicSecurityConfig.isValidId(id),
            let text = try? String(contentsOf: directory.appendingPathComponent(id), encoding: .utf8)
        else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }

    public func store(_ account: BrokerAccount) throws(BrokerAccessError) {
        guard DynamicSecurityConfig.isValidId(account.id) else { throw .invalidId(account.id) }
        try SecretFile.write(Data((account.password + "\n").utf8), to: directory.appendingPathComponent(account.id).path)
    }

    /// First start: when `securityFile` does not exist yet, generates a password for admin, every
    /// service and `extra` accounts, stores them here and writes the plugin's file. Later starts
    /// change nothing. Returns whether it created the accounts.
    @discardableResult
    public func initialise(securityFile: String, extra: [BrokerAccount] = [], prefix: String = "guardian") throws(BrokerAccessError) -> Bool {
        guard !FileManager.default.fileExists(atPath: securityFile) else { return false }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try FileManager.default.createDirectory(
                at: URL(fileURLWithPath: securityFile).deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw .file(path: directory.path, reason: "\(error)")
        }
        let accounts = BrokerAccount.generatedForServices() + extra
        for account in accounts { try store(account) }
        try DynamicSecurityConfig(accounts: accounts, prefix: prefix).write(to: securityFile)
        return true
    }
}
