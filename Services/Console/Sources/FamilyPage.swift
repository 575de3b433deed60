import GuardianShared

/// The family page (`family` template): each child's device and policy, the command box and its
/// replies, the notifications, the map. Each section is also a template of its own, for the live stream.
struct FamilyPage {
    let csrf: String
    let pickChild: Bool
    let choices: [Choice]
    let cards: [Card]
    let commands: [Command]
    let notes: [Note]
    let drawing: FamilyMap.Drawing?

    /// A child's device as the `children` section shows it.
    struct Card {
        let deviceId: String, name: String, online: Bool, seen: String, battery: String
        let restrictions: [Restriction], command: LastCommand?, status: ChildStatus?
    }
    struct Restriction { let what: String, until: Timestamp?, endsIn: String?, message: String? }
    struct LastCommand { let what: String, issuedAt: Timestamp?, acknowledged: Bool, pending: Bool, refusal: String? }
    /// A sent command and Guardian's reply; a question comes with the form that answers it in place.
    struct Command { let id: String, text: String?, reply: Reply?, question: Bool, choices: [Choice] }
    struct Reply { let status: String, label: String, summary: String, reason: String? }
    struct Note { let id: String, ts: Timestamp, priority: String, kind: String, important: Bool, title: String, body: String }

    init(view: FamilyView, parent: String, csrf: String, now: Timestamp, onlineWindow: Duration, tiles: MapTiles? = nil) {
        let children = view.children(of: parent)
        self.csrf = csrf
        pickChild = children.count > 1
        choices = children.map { Choice(value: $0.deviceId, label: $0.name) }
        cards = children.map { Self.card($0, view.devices[$0.deviceId] ?? ChildView(), now: now, onlineWindow: onlineWindow) }
        commands = view.commands.map { command in
            let reply = command.reply.map { Reply(status: $0.status.rawValue, label: Self.label($0.status), summary: $0.summary, reason: $0.reason) }
            return Command(
                id: command.id, text: command.text.isEmpty ? nil : command.text, reply: reply, question: command.reply?.status == .clarify,
                choices: children.map { Choice(value: $0.deviceId, label: $0.name, selected: $0.deviceId == command.child) })
        }
        notes = view.notifications.map {
            Note(id: $0.id, ts: $0.ts, priority: $0.priority.rawValue, kind: $0.kind.rawValue.replacingOccurrences(of: "_", with: " "),
                 important: $0.priority == .high, title: $0.title, body: $0.body)
        }
        drawing = FamilyMap(view: view, children: children, tiles: tiles).drawing
    }

    private static func card(_ child: Family.Child, _ device: ChildView, now: Timestamp, onlineWindow: Duration) -> Card {
        let seen = device.lastSeen.map { "last event \(CommandWording.span(seconds: (now.milliseconds - $0.milliseconds) / 1000)) ago" } ?? "no event since you signed in"
        let battery = device.batteryLevel.map { "\(Int(($0 * 100).rounded()))%" + (device.batteryState.map { " (\($0))" } ?? "") } ?? "unknown"
        let restrictions = (device.policy?.restrictions ?? []).map { restriction in
            Restriction(
                what: CommandWording.describe(restriction), until: restriction.until,
                endsIn: restriction.until.map { CommandWording.span(seconds: ($0.milliseconds - now.milliseconds) / 1000) },
                message: restriction.until == nil ? restriction.message : nil)
        }
        let command = device.command.map { command in
            let ack = device.ack.flatMap { $0.commandId == command.id ? $0 : nil }
            return LastCommand(
                what: CommandWording.describe(command.command), issuedAt: command.issuedAt, acknowledged: ack?.ok == true, pending: ack == nil,
                refusal: ack.flatMap { $0.ok ? nil : $0.error ?? "no reason given" })
        }
        return Card(
            deviceId: child.deviceId, name: child.name, online: device.isOnline(now: now, window: onlineWindow), seen: seen, battery: battery,
            restrictions: restrictions, command: command, status: device.status)
    }

    private static func label(_ status: CommandReply.Status) -> String {
        switch status {
        case .accepted: "Done"
        case .rejected: "Not done"
        case .clarify: "Question"
        }
    }
}
