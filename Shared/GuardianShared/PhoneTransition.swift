/// A phone's own region event (OwnTracks `transition`), republished as `guardian/events/{deviceId}/transition`
/// for geofence to forward with `source: "device"`.
public struct PhoneTransition: EventBody, Equatable {
    public enum Event: String, Codable, CaseIterable, Sendable { case enter, leave }

    public static let kind = EventKind.transition
    public var event: Event
    /// The region's description (`desc`), for Guardian's waypoints the zone name.
    public var desc: String?
    /// The region id (`rid`), for Guardian's waypoints the zone id.
    public var rid: String?
    public var lat: Double
    public var lon: Double
    public var acc: Double?
    /// When the region was defined (`wtst`).
    public var wtst: Timestamp?
    /// OwnTracks trigger: `c` circle, `b` beacon, `l` location.
    public var trigger: String?

    public init(
        event: Event, desc: String? = nil, rid: String? = nil, lat: Double, lon: Double, acc: Double? = nil, wtst: Timestamp? = nil,
        trigger: String? = nil
    ) {
        self.event = event
        self.desc = desc
        self.rid = rid
        self.lat = lat
        self.lon = lon
        self.acc = acc
        self.wtst = wtst
        self.trigger = trigger
    }
}

/// The phone dropped off the bus (OwnTracks `lwt`): `guardian/events/{deviceId}/offline`.
public struct DeviceOffline: EventBody, Equatable {
    public static let kind = EventKind.offline
    public var reason: String

    public init(reason: String) { self.reason = reason }
}
