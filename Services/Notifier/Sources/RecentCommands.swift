import GuardianCommandRouter
import GuardianShared

/// The latest commands sent to each child (`guardian/children/{deviceId}/command`), so that a
/// device's acknowledgement can tell the parents what is now in effect, not a command's id.
struct RecentCommands {
    /// Commands kept per child: acknowledgements come within seconds of their command.
    static let perChild = 16
    private var byChild: [String: [ChildCommandMessage]] = [:]

    mutating func record(_ command: ChildCommandMessage, for deviceId: String) {
        var list = byChild[deviceId, default: []].filter { $0.id != command.id }
        list.append(command)
        byChild[deviceId] = Array(list.suffix(Self.perChild))
    }

    func command(_ id: String, for deviceId: String) -> ChildCommandMessage? {
        byChild[deviceId]?.last(where: { $0.id == id })
    }

    mutating func forget(_ deviceId: String) { byChild[deviceId] = nil }
}
