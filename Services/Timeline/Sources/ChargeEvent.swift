import GuardianShared

/// The phone put on or taken off its charger (from the device's `state` events): a sign that
/// someone handled it, as a walk about the place is. An overnight charge shows when the night
/// began and ended where the phone, left on a table, shows no movement.
public struct ChargeEvent: Sendable, Codable, Hashable {
    /// Milliseconds since the Unix epoch.
    public var timestamp: Int64
    /// `true` from here on the phone charges (or is full on the charger); `false`, unplugged.
    public var charging: Bool

    public init(timestamp: Int64, charging: Bool) {
        self.timestamp = timestamp
        self.charging = charging
    }

    /// Whether a `state` event's battery state says the phone is on its charger (`nil`: it does not say).
    public static func isCharging(_ state: DeviceState.BatteryState) -> Bool? {
        switch state {
        case .charging, .full: true
        case .unplugged: false
        case .unknown: nil
        }
    }
}

extension [ChargeEvent] {
    /// The instants the charging state changed, in order (repeats of one state dropped). The first
    /// report is one: phones report the battery's state when it changes (a report with every fix,
    /// as OwnTracks sends, begins with the data and cuts nothing).
    var changes: [Int64] {
        var changes: [Int64] = []
        var state: Bool?
        for event in sorted(by: { $0.timestamp < $1.timestamp }) where event.charging != state {
            changes.append(event.timestamp)
            state = event.charging
        }
        return changes
    }
}
