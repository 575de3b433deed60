import Foundation

/// The dynamic-security plugin's configuration file (`plugin_opt_config_file`), written before the
/// broker first starts. The broker owns it afterwards: it rewrites the file on every change made over
/// `$CONTROL/dynamic-security/v1`.
public struct DynamicSecurityConfig: Encodable, Sendable {
    struct Client: Encodable {
        var username: String
        var textName: String
        var password: String
        var salt: String
        var iterations: Int
        var roles: [RoleReference]
    }

    struct RoleReference: Encodable { var rolename: String }

    struct Role: Encodable {
        var rolename: String
        var acls: [DynamicSecurityACL]
    }

    var clients: [Client]
    var groups: [String] = []
    var roles: [Role]
    /// Publishing and receiving are refused unless a role grants them; subscribing is not checked
    /// (each delivered message is), as with the broker's plain ACL file.
    var defaultACLAccess: [String: Bool] = [
        "publishClientSend": false, "publishClientReceive": false, "subscribe": true, "unsubscribe": true,
    ]

    /// A configuration holding exactly `accounts`, each with its own role, passwords hashed.
    public init(accounts: [BrokerAccount], prefix: String = "guardian") throws(BrokerAccessError) {
        var clients: [Client] = []
        var roles: [Role] = []
        for account in accounts {
            guard Self.isValidId(account.id) else { throw .invalidId(account.id) }
            let hashed = try AccountPassword.hash(account.password)
            let roleName = account.role.roleName(for: account.id)
            clients.append(Client(
                username: account.id, textName: account.role.kind, password: hashed.hash, salt: hashed.salt,
                iterations: hashed.iterations, roles: [RoleReference(rolename: roleName)]))
            roles.append(Role(rolename: roleName, acls: account.role.grants(for: account.id, prefix: prefix).flatMap(\.entries)))
        }
        self.clients = clients
        self.roles = roles
    }

    /// Writes the file readable by its owner only (it holds password hashes).
    public func write(to path: String) throws(BrokerAccessError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            let data = try encoder.encode(self)
            try SecretFile.write(data, to: path)
        } catch let error as BrokerAccessError {
            throw error
        } catch {
            throw .file(path: path, reason: "\(error)")
        }
    }

    static func isValidId(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 64
            && id.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D || $0 == 0x5F }
    }
}
