/// What a broker account is for, and so which topics it may publish and receive.
///
/// Every person and device account gets a role of its own, named `{kind}/{id}`, whose rules name
/// its own id: the broker's dynamic-security plugin has no `%u` substitution, so the id is written
/// into the topics when the account is enrolled.
public enum AccessRole: Sendable, Hashable {
    /// A phone or tablet that publishes under `…/devices/{id}/…`.
    case device
    /// A child's device: a device whose commands and policy arrive under `…/children/{id}/…`.
    case child
    /// A parent: sends commands and reads their replies and notifications.
    case parent
    /// An OwnTracks phone: `owntracks/{user}/…` only.
    case owntracks
    /// One of Guardian's own programs (`ingest`, …, `guardian-cli`, `guardian-mcp`).
    case service(String)
    /// Administers the broker's accounts and reads everything.
    case admin

    /// The kinds `guardian devices add --role` accepts.
    public static let enrollable: [String] = ["device", "child", "parent", "owntracks"]

    /// The services Guardian runs, each with its own account.
    public static let serviceNames = [
        "ingest", "geofence", "timeline", "predictor", "command-router", "notifier", "guardian-cli", "guardian-mcp",
    ]

    public init?(kind: String) {
        switch kind {
        case "device": self = .device
        case "child": self = .child
        case "parent": self = .parent
        case "owntracks": self = .owntracks
        case "admin": self = .admin
        default:
            guard kind.hasPrefix("service:") else { return nil }
            let name = String(kind.dropFirst("service:".count))
            guard AccessRole.serviceNames.contains(name) else { return nil }
            self = .service(name)
        }
    }

    /// The word that names the role (`device`, `service:ingest`, …).
    public var kind: String {
        switch self {
        case .device: "device"
        case .child: "child"
        case .parent: "parent"
        case .owntracks: "owntracks"
        case .service(let name): "service:\(name)"
        case .admin: "admin"
        }
    }

    /// The plugin's role name for account `id`.
    public func roleName(for id: String) -> String { "\(kind)/\(id)" }

    /// Reads the role back from a plugin role name, with the account it was made for.
    public static func parse(roleName: String) -> (role: AccessRole, id: String)? {
        guard let slash = roleName.lastIndex(of: "/") else { return nil }
        guard let role = AccessRole(kind: String(roleName[..<slash])) else { return nil }
        return (role, String(roleName[roleName.index(after: slash)...]))
    }
}
