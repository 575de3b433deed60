/// The kinds of device event: the last level of `guardian/devices/{deviceId}/{kind}` and of
/// `guardian/events/{deviceId}/{kind}`.
public enum EventKind: String, Codable, CaseIterable, Sendable {
    case location, motion, health, state, snapshot, budget, usage, profile
    /// A phone's own region enter/leave (OwnTracks `transition`), for geofence to forward.
    case transition
    /// The phone dropped off the bus (OwnTracks `lwt`).
    case offline

    /// Kinds a device may publish under `guardian/devices/{deviceId}/`.
    public static let uploadKinds: Set<EventKind> = [.location, .motion, .health, .state, .snapshot, .budget, .usage, .profile]
}

/// The fields of one kind of event, without the envelope (`id`, `deviceId`, `ts`, `receivedAt`).
public protocol EventBody: Codable, Sendable {
    static var kind: EventKind { get }
}
