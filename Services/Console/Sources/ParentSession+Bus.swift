import Foundation
import GuardianShared
import GuardianTimeline
import MQTT

/// What the parent's connection reads and sends. Subscriptions are wide (`+`): the broker delivers
/// only what the parent's roles let them read, and the console shows only their families' children.
extension ParentSession {
    func subscribe() async throws(MQTTError) {
        let p = topics.prefix
        let filters = [
            topics.families, "\(p)/zones/+", "\(p)/events/+/+", "\(p)/children/+/+", "\(p)/timeline/+/days/+",
            "\(p)/notifications/\(parent)", "\(p)/parents/\(parent)/replies",
        ]
        for filter in filters {
            try await client.subscribe(filter) { [weak self] message in self?.receive(message) }
        }
    }

    /// Applies one message to the view and tells the open pages what changed. Malformed payloads
    /// are ignored (the services report them; a parent's page is not the place).
    func receive(_ message: MQTTMessage) {
        guard let levels = topics.levels(of: message.topic)?.map(String.init) else { return }
        let decoder = JSONDecoder()
        func decode<T: Decodable>(_ type: T.Type) -> T? {
            message.payload.isEmpty ? nil : try? decoder.decodePayload(type, from: message.payload)
        }
        let changed: Set<LiveSection> = view.withLock { view in
            switch (levels.first, levels.count) {
            case ("families", 2):
                view.families[levels[1]] = decode(Family.self)
                return [.children, .map]
            case ("zones", 2):
                view.zones[levels[1]] = decode(DangerZone.self)
                return [.map]
            case ("events", 3):
                return Self.apply(event: levels[2], of: levels[1], decode(JSONObject.self), to: &view)
            case ("children", 3):
                let child = levels[1]
                switch levels[2] {
                case "policy": view.devices[child, default: ChildView()].policy = decode(PolicyInForce.self)
                case "command": view.devices[child, default: ChildView()].command = decode(LatestCommand.self)
                case "status": view.devices[child, default: ChildView()].status = decode(ChildStatus.self)
                case "ack":
                    guard let ack = decode(CommandAck.self) else { return [] }
                    view.devices[child, default: ChildView()].ack = ack
                default: return []
                }
                return [.children]
            case ("timeline", 4) where levels[2] == "days":
                let (child, date) = (levels[1], levels[3])
                view.days[child, default: [:]][date] = decode(PublishedDay.self)
                return [.day(child: child, date: date)]
            case ("notifications", 2):
                guard let notification = decode(UserNotification.self) else { return [] }
                view.add(notification)
                return [.notifications]
            case ("parents", 3) where levels[2] == "replies":
                guard let reply = decode(CommandReply.self) else { return [] }
                view.record(reply, at: .now())
                return [.commands]
            default:
                return []
            }
        }
        announce(changed)
    }

    private static func apply(event kind: String, of device: String, _ body: JSONObject?, to view: inout FamilyView) -> Set<LiveSection> {
        guard let body, case .object(let fields) = body else { return [] }
        let ts = fields["ts"]?.string.flatMap { Timestamp(rfc3339: $0) }
        let received = fields["receivedAt"]?.string.flatMap { Timestamp(rfc3339: $0) } ?? ts
        var child = view.devices[device] ?? ChildView()
        var changed: Set<LiveSection> = [.children]
        if kind == "offline" {
            child.wentOffline = received ?? .now()
        } else if let received, kind != "profile" {
            child.lastSeen = max(child.lastSeen ?? received, received)
        }
        switch kind {
        case "state":
            if let level = fields["batteryLevel"]?.number { child.batteryLevel = level }
            if let state = fields["batteryState"]?.string { child.batteryState = state }
        case "location":
            if let lat = fields["lat"]?.number, let lon = fields["lon"]?.number, let ts, ts >= (child.location?.ts ?? ts) {
                child.location = .init(lat: lat, lon: lon, ts: ts)
                changed.insert(.map)
            }
        default: break
        }
        view.devices[device] = child
        return changed
    }

    /// Publishes `{id, text, child?}` on the parent's command topic; the reply arrives on
    /// `…/replies` and shows under the command.
    func send(command text: String, child: String?) async throws(ConsoleError) -> String {
        let id = "console-\(SessionToken.make(bytes: 9))"
        var body: [String: JSONObject] = ["id": .string(id), "text": .string(text)]
        if let child { body["child"] = .string(child) }
        view.withLock { $0.add(SentCommand(id: id, text: text, child: child, sentAt: .now(), reply: nil)) }
        announce([.commands])
        do {
            try await client.publish("\(topics.prefix)/parents/\(parent)/commands", payload: GuardianJSON.encode(body))
        } catch {
            throw .busFailure("\(error)")
        }
        return id
    }

    /// Relabels the slot of `child`'s day containing `start` (the timeline service republishes the day).
    func correct(child: String, start: Timestamp, category: TimelineCategory) async throws(ConsoleError) {
        let body: [String: JSONObject] = ["start": .string(start.rfc3339), "category": .string(category.rawValue)]
        do {
            try await client.publish("\(topics.prefix)/timeline/\(child)/feedback", payload: GuardianJSON.encode(body))
        } catch {
            throw .busFailure("\(error)")
        }
    }

    /// Asks every running service to export or erase what it holds about `child`, as the parent.
    func privacy(_ action: PrivacyRequest.Action, child: String) async throws(ConsoleError) -> PrivacyExchange.Outcome {
        do {
            return try await PrivacyExchange(client: client, topics: topics, requester: parent)
                .ask(action, deviceId: child, timeout: settings.privacyTimeout)
        } catch {
            throw .busFailure("\(error)")
        }
    }
}
