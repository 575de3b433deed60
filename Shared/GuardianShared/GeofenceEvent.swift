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

        enum CodingKeys: String, CodingKey { case lat, lon, acc }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            lat = try c.number(.lat, in: -90...90)
            lon = try c.number(.lon, in: -180...180)
            acc = try c.optionalNumber(.acc, in: 0...1e7)
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

    enum CodingKeys: String, CodingKey { case id, ts, deviceId, type, zoneId, zoneName, merchant, distance, dwellSeconds, location, source }

    /// Reads an event with the contract's rules: ids, enums, and distances and durations in range.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        guard Identifier.isValidEventId(id) else { throw ContractViolation(path: c.codingPath + [CodingKeys.id], "is not a valid event id") }
        ts = try c.decode(Timestamp.self, forKey: .ts)
        deviceId = try c.decode(String.self, forKey: .deviceId)
        try Identifier.validate(deviceId, field: "deviceId")
        type = try c.choice(.type, Kind.self)
        zoneId = try c.decode(String.self, forKey: .zoneId)
        try Identifier.validate(zoneId, field: "zoneId")
        zoneName = try c.text(.zoneName, maxLength: 128)
        merchant = try c.optionalText(.merchant, maxLength: 128)
        distance = try c.number(.distance, in: 0...20_040_000)
        dwellSeconds = try c.number(.dwellSeconds, in: 0...31_536_000)
        location = try c.decode(Fix.self, forKey: .location)
        source = try c.choice(.source, Source.self)
    }

    /// A deterministic id: the same visit step always gets the same id, so a replay is recognised.
    public static func makeId(deviceId: String, zoneId: String, type: Kind, ts: Timestamp, source: Source) -> String {
        SHA256.hex(Array("\(deviceId)\n\(zoneId)\n\(type.rawValue)\n\(ts.milliseconds)\n\(source.rawValue)".utf8)).prefix(32).description
    }
}
