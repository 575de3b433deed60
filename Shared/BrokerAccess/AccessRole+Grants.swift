extension AccessRole {
    /// The topics account `id` may publish and receive in this role, under topic root `prefix`.
    ///
    /// Subscribing is never refused (the broker's default); each message is delivered only where a
    /// read grant covers its real topic, so `$share/…` subscriptions need no entries of their own.
    public func grants(for id: String, prefix: String = "guardian") -> [TopicGrant] {
        let p = prefix
        let everyone: [TopicGrant] = [
            .init(.readWrite, "\(p)/privacy/requests/\(id)"),
            .init(.read, "\(p)/privacy/receipts/\(id)/#"),
            .init(.read, "\(p)/privacy/exports/\(id)/#"),
            .init(.read, "\(p)/services/+/+"),
        ]
        switch self {
        case .device, .child:
            return everyone + [
                .init(.readWrite, "\(p)/devices/\(id)/#"),
                .init(.write, "\(p)/children/\(id)/status"),
                .init(.write, "\(p)/children/\(id)/ack"),
                .init(.read, "\(p)/children/\(id)/#"),
                .init(.write, "\(p)/timeline/\(id)/generate"),
                .init(.write, "\(p)/timeline/\(id)/feedback"),
                .init(.read, "\(p)/timeline/\(id)/#"),
                .init(.read, "\(p)/notifications/\(id)"),
                .init(.read, "\(p)/predictions/\(id)"),
                .init(.read, "\(p)/nudges/\(id)"),
                .init(.read, "\(p)/geofence/\(id)"),
                .init(.read, "\(p)/predictor/responses/\(id)/#"),
                .init(.readWrite, "\(p)/users/\(id)/preferences"),
                .init(.readWrite, "owntracks/\(id)/#"),
            ]
        case .owntracks:
            return everyone + [.init(.readWrite, "owntracks/\(id)/#")]
        case .parent:
            return everyone + [
                .init(.write, "\(p)/parents/\(id)/commands"),
                .init(.read, "\(p)/parents/\(id)/replies"),
                .init(.write, "\(p)/parents/\(id)/activity"),
                .init(.read, "\(p)/parents/\(id)/activity-replies/#"),
                .init(.readWrite, "\(p)/users/\(id)/preferences"),
                .init(.read, "\(p)/notifications/\(id)"),
            ]
        case .admin:
            return [
                .init(.readWrite, "\(p)/#"), .init(.readWrite, "owntracks/#"), .init(.read, "$SYS/#"),
                .init(.readWrite, "$CONTROL/dynamic-security/#"),
            ]
        case .service(let name):
            // Above the CLI's refusal of other requesters' privacy topics.
            return everyone.map { TopicGrant($0.access, $0.filter, priority: 2) } + Self.serviceGrants(name, prefix: p)
        }
    }

    /// What each of Guardian's programs reads and writes; every service also owns its error topic,
    /// its presence, and answers privacy requests.
    static func serviceGrants(_ name: String, prefix p: String) -> [TopicGrant] {
        let own: [TopicGrant] = [.init(.write, "\(p)/errors/\(name)"), .init(.readWrite, "\(p)/services/\(name)/#")]
        let privacyDesk: [TopicGrant] = [
            .init(.read, "\(p)/privacy/requests/#"), .init(.read, "\(p)/families/#"),
            .init(.write, "\(p)/privacy/receipts/#"), .init(.write, "\(p)/privacy/exports/#"),
        ]
        let profiles = TopicGrant(.read, "\(p)/devices/+/profile")
        switch name {
        case "ingest":
            return own + privacyDesk + [
                .init(.read, "\(p)/devices/#"), .init(.read, "owntracks/#"), .init(.write, "\(p)/events/#"),
                .init(.write, "\(p)/devices/+/profile"),
            ]
        case "geofence":
            return own + privacyDesk + [
                .init(.read, "\(p)/events/#"), .init(.read, "\(p)/zones/#"), profiles,
                .init(.readWrite, "\(p)/geofence/#"), .init(.write, "owntracks/+/+/cmd"),
            ]
        case "predictor":
            return own + privacyDesk + [
                .init(.read, "\(p)/geofence/#"), .init(.read, "\(p)/events/#"), .init(.read, "\(p)/zones/#"), profiles,
                .init(.read, "\(p)/models/#"), .init(.read, "\(p)/predictor/requests"),
                .init(.write, "\(p)/predictor/responses/#"), .init(.write, "\(p)/predictions/#"), .init(.write, "\(p)/nudges/#"),
                .init(.write, "\(p)/models/purchase-predictor/status"),
            ]
        case "timeline":
            return own + privacyDesk + [
                .init(.read, "\(p)/events/#"), .init(.read, "\(p)/geofence/#"), .init(.read, "\(p)/zones/#"), profiles,
                .init(.read, "\(p)/timeline/#"), .init(.write, "\(p)/timeline/+/days/+"),
            ]
        case "command-router":
            return own + privacyDesk + [
                .init(.read, "\(p)/parents/+/commands"), .init(.read, "\(p)/parents/+/activity"), .init(.read, "\(p)/children/#"),
                profiles, .init(.read, "\(p)/events/#"), .init(.read, "\(p)/users/+/preferences"),
                .init(.write, "\(p)/parents/+/replies"), .init(.write, "\(p)/parents/+/activity-replies/#"),
                .init(.write, "\(p)/children/+/command"), .init(.write, "\(p)/children/+/policy"),
                .init(.write, "\(p)/children/+/status"), .init(.write, "\(p)/families/+"),
            ]
        case "notifier":
            return own + privacyDesk + [
                .init(.read, "\(p)/nudges/#"), .init(.read, "\(p)/predictions/#"), .init(.read, "\(p)/children/#"),
                .init(.read, "\(p)/parents/+/replies"), .init(.read, "\(p)/users/+/preferences"), profiles,
                .init(.read, "\(p)/events/+/profile"), .init(.read, "\(p)/zones/#"), .init(.readWrite, "\(p)/notifications/#"),
                .init(.write, "\(p)/users/+/preferences"),
            ]
        case "guardian-mcp":
            return own + [
                .init(.write, "\(p)/parents/+/commands"), .init(.read, "\(p)/parents/+/replies"),
                .init(.write, "\(p)/parents/+/activity"), .init(.read, "\(p)/parents/+/activity-replies/#"),
                .init(.read, "\(p)/notifications/#"), .init(.read, "\(p)/children/#"), .init(.read, "\(p)/families/#"),
                .init(.read, "\(p)/events/#"), .init(.read, "\(p)/timeline/+/days/#"), .init(.read, "\(p)/geofence/#"), profiles,
                .init(.write, "\(p)/predictor/requests"),
            ]
        case "guardian-cli":
            // The operator's tool reads and writes everything but other requesters' privacy requests,
            // receipts and exports: it asks under its own id, like everyone (a request as admin needs admin).
            return [
                .init(.readWrite, "\(p)/privacy/#", allow: false, priority: 1),
                .init(.readWrite, "\(p)/#"), .init(.readWrite, "owntracks/#"),
            ]
        default:
            return own
        }
    }
}
