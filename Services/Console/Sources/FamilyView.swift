import GuardianShared
import GuardianTimeline

/// Everything one signed-in parent sees, as the broker delivered it to their own connection.
struct FamilyView: Sendable {
    /// Retained families; the broker delivers only those the parent's family role reads.
    var families: [String: Family] = [:]
    var zones: [String: DangerZone] = [:]
    /// By device id: only children of the parent's families are shown.
    var devices: [String: ChildView] = [:]
    /// Newest first, at most `maxNotifications`.
    var notifications: [UserNotification] = []
    /// Newest first, at most `maxCommands`.
    var commands: [SentCommand] = []
    /// By device id, then date.
    var days: [String: [String: PublishedDay]] = [:]

    static let maxNotifications = 50
    static let maxCommands = 20

    /// The parent's children, in the families' order, each once.
    func children(of parent: String) -> [Family.Child] {
        var seen: Set<String> = []
        return families.sorted { $0.key < $1.key }.filter { $0.value.parents.contains(parent) }
            .flatMap(\.value.children).filter { seen.insert($0.deviceId).inserted }
    }

    func child(_ deviceId: String, of parent: String) -> Family.Child? {
        children(of: parent).first { $0.deviceId == deviceId }
    }

    mutating func add(_ notification: UserNotification) {
        guard !notifications.contains(where: { $0.id == notification.id }) else { return }
        notifications.insert(notification, at: 0)
        notifications.sort { $0.ts > $1.ts }
        if notifications.count > Self.maxNotifications { notifications.removeLast(notifications.count - Self.maxNotifications) }
    }

    mutating func add(_ command: SentCommand) {
        commands.insert(command, at: 0)
        if commands.count > Self.maxCommands { commands.removeLast(commands.count - Self.maxCommands) }
    }

    /// Files a reply under its command; a reply to a command sent elsewhere (the CLI, an assistant)
    /// is listed on its own.
    mutating func record(_ reply: CommandReply, at time: Timestamp) {
        if let index = commands.firstIndex(where: { $0.id == reply.commandId }) {
            commands[index].reply = reply
        } else {
            add(SentCommand(id: reply.commandId, text: "", child: nil, sentAt: time, reply: reply))
        }
    }
}
