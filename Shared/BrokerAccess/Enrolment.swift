import MQTT

/// Enrols, lists and revokes accounts on a running broker, at once and without a restart.
public struct Enrolment: Sendable {
    /// An account as the broker lists it.
    public struct Listed: Sendable, Hashable {
        public var id: String
        /// Nil for an account Guardian did not make (no `{kind}/{id}` role).
        public var role: AccessRole?

        public init(id: String, role: AccessRole?) {
            self.id = id
            self.role = role
        }
    }

    let control: DynamicSecurityControl
    let prefix: String

    /// `client` must be connected as an admin.
    public init(client: MQTTClient, prefix: String = "guardian") async throws(BrokerAccessError) {
        control = try await DynamicSecurityControl(client: client)
        self.prefix = prefix
    }

    /// Creates `id` in `role` with a new password (returned, and stored nowhere else). Its grants
    /// hold from its first connection.
    public func add(_ id: String, role: AccessRole) async throws(BrokerAccessError) -> BrokerAccount {
        guard DynamicSecurityConfig.isValidId(id) else { throw .invalidId(id) }
        guard try await !list().contains(where: { $0.id == id }) else { throw .alreadyEnrolled(id) }
        let account = BrokerAccount(id: id, role: role, password: AccountPassword.generate())
        let roleName = role.roleName(for: id)
        _ = try await control.run([
            .init(command: "createRole", rolename: roleName, acls: role.grants(for: id, prefix: prefix).flatMap(\.entries)),
            .init(command: "createClient", username: id, password: account.password, textname: role.kind,
                  roles: [.init(rolename: roleName)]),
        ])
        return account
    }

    /// Deletes `id` and its role; the broker disconnects it if it is connected. True when it existed.
    @discardableResult
    public func remove(_ id: String) async throws(BrokerAccessError) -> Bool {
        guard DynamicSecurityConfig.isValidId(id) else { throw .invalidId(id) }
        let existing = try await list().first { $0.id == id }
        guard let existing else { return false }
        var commands: [DynamicSecurityControl.Command] = [.init(command: "deleteClient", username: id)]
        if let role = existing.role { commands.append(.init(command: "deleteRole", rolename: role.roleName(for: id))) }
        _ = try await control.run(commands, tolerating: ["Role not found"])
        return true
    }

    /// Every account on the broker, sorted by id.
    public func list() async throws(BrokerAccessError) -> [Listed] {
        let answers = try await control.run([.init(command: "listClients", verbose: true, count: -1, offset: 0)])
        let clients = answers.first?.data?.clients ?? []
        return clients.map { client in
            let role = client.roles?.lazy.compactMap { AccessRole.parse(roleName: $0.rolename) }.first { $0.id == client.username }
            return Listed(id: client.username, role: role?.role)
        }.sorted { $0.id < $1.id }
    }
}

extension Enrolment {
    /// The role a family's parents share, `family/{familyId}`: read access to their children's
    /// events, commands, policy, status, days and geofence events, the right to correct their days,
    /// and the family itself, so that an app signed in as a parent (the console) sees its family
    /// through the broker's own checks.
    public static func familyRoleName(_ familyId: String) -> String { "family/\(familyId)" }

    public static func familyGrants(familyId: String, children: [String], prefix p: String = "guardian") -> [TopicGrant] {
        [.init(.read, "\(p)/families/\(familyId)"), .init(.read, "\(p)/zones/#")]
            + children.flatMap { child -> [TopicGrant] in
                [
                    .init(.read, "\(p)/events/\(child)/#"), .init(.read, "\(p)/children/\(child)/#"),
                    .init(.read, "\(p)/timeline/\(child)/#"), .init(.write, "\(p)/timeline/\(child)/feedback"),
                    .init(.read, "\(p)/geofence/\(child)"),
                ]
            }
    }

    /// Gives the family's parents (those with an account) the family's role, made anew for its
    /// current children; parents no longer listed lose it. Returns the parents that have no account.
    @discardableResult
    public func setFamily(_ familyId: String, parents: [String], children: [String]) async throws(BrokerAccessError) -> [String] {
        guard DynamicSecurityConfig.isValidId(familyId) else { throw .invalidId(familyId) }
        let roleName = Self.familyRoleName(familyId)
        let known = Set(try await list().map(\.id))
        let missing = parents.filter { !known.contains($0) }
        var commands: [DynamicSecurityControl.Command] = [
            .init(command: "deleteRole", rolename: roleName),
            .init(command: "createRole", rolename: roleName, acls: Self.familyGrants(familyId: familyId, children: children, prefix: prefix).flatMap(\.entries)),
        ]
        for parent in parents where known.contains(parent) {
            commands.append(.init(command: "addClientRole", username: parent, rolename: roleName))
        }
        _ = try await control.run(commands, tolerating: ["Role not found"])
        return missing
    }

    /// Takes the family's role away from everyone (the family was erased).
    public func removeFamily(_ familyId: String) async throws(BrokerAccessError) {
        _ = try await control.run([.init(command: "deleteRole", rolename: Self.familyRoleName(familyId))], tolerating: ["Role not found"])
    }
}
