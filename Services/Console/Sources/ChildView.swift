import GuardianShared

/// What the console knows about one child's device: from retained topics (policy, command,
/// status, days) and from the events that arrived since the parent signed in.
struct ChildView: Sendable, Equatable {
    /// When the newest event from the device reached Guardian (`receivedAt`, else its `ts`).
    var lastSeen: Timestamp?
    /// When the device last went offline (an OwnTracks last will), if after `lastSeen`.
    var wentOffline: Timestamp?
    var batteryLevel: Double?
    var batteryState: String?
    var location: LastLocation?
    var policy: PolicyInForce?
    var command: LatestCommand?
    var ack: CommandAck?
    var status: ChildStatus?

    struct LastLocation: Sendable, Equatable {
        var lat: Double
        var lon: Double
        var ts: Timestamp
    }

    /// The console's definition: online when an event arrived within `window` and no offline event
    /// came after it.
    func isOnline(now: Timestamp, window: Duration) -> Bool {
        guard let lastSeen else { return false }
        if let wentOffline, wentOffline >= lastSeen { return false }
        return Double(now.milliseconds - lastSeen.milliseconds) / 1000 <= Double(window.components.seconds)
    }
}
