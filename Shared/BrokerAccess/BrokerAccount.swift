/// An account on the broker: who connects (`id`, the MQTT user name), in which role, with which password.
public struct BrokerAccount: Sendable, Hashable {
    public var id: String
    public var role: AccessRole
    public var password: String

    public init(id: String, role: AccessRole, password: String) {
        self.id = id
        self.role = role
        self.password = password
    }

    /// The accounts every Guardian needs: `admin` and one per service, each with a new password.
    public static func generatedForServices() -> [BrokerAccount] {
        [BrokerAccount(id: "admin", role: .admin, password: AccountPassword.generate())]
            + AccessRole.serviceNames.map { BrokerAccount(id: $0, role: .service($0), password: AccountPassword.generate()) }
    }

    /// The sample people and devices of the README's first session and of the tests.
    public static func generatedSamples() -> [BrokerAccount] {
        [("phone-alice", AccessRole.device), ("tablet-sam", .child), ("parent-alex", .parent), ("alice", .owntracks)]
            .map { BrokerAccount(id: $0.0, role: $0.1, password: AccountPassword.generate()) }
    }
}
