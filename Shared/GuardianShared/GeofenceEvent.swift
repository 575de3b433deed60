/// A device entering, leaving or lingering in a danger zone: `guardian/geofence/{deviceId}`.
public struct GeofenceEvent: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, CaseIterable, Sendable { case enter, exit, dwell }
    /// `server`: detected by geofence from location fixes; `device`: the phone's own region monitoring.
    public enum Source: String, Codable, CaseIterable, Sendable { case server, device }

    public struct Fix: Codable, Sendable, Equatable {
        public var lat: Double
        public var lon: Double
        public var acc: Double?
        public init(lat: Double, lon: Double, acc: Double? = nil) {
            self.lat = lat
            self.lon = lon
            self.acc = acc
        }
    }

    public var id: String
    public var ts: Timestamp
    public var deviceId: String
    public var type: Kind
    public var zoneId: String
    public var zoneName: String
    public var merchant: String?
    /// Metres from the fix to the zone's centre.
    public var distance: Double
    /// Seconds since the visit began (0 on enter).
    public var dwellSeconds: Double
    public var location: Fix
    public var source: Source

    public init(
        id: String, ts: Timestamp, deviceId: String, type: Kind, zoneId: String, zoneName: String, merchant: String?,
        distance: Double, dwellSeconds: Double, location: Fix, source: Source
    ) {
        self.id = id
        self.ts = ts
        self.deviceId = deviceId
        self.type = type
        self.zoneId = zoneId
        self.zoneName = zoneName
        self.merchant = merchant
        self.distance = distance
        self.dwellSeconds = dwellSeconds
        self.location = location
        self.source = source
    }

    /// A deterministic id: the same visit step always gets the same id, so a replay is recognised.
    public static func makeId(deviceId: String, zoneId: String, type: Kind, ts: Timestamp, source: Source) -> String {
        SHA256.hex(Array("\(deviceId)\n\(zoneId)\n\(type.rawValue)\n\(ts.milliseconds)\n\(source.rawValue)".utf8)).prefix(32).description
    }
}
