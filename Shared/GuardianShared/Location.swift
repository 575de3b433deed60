/// A position fix (`location` kind): degrees, metres, m/s.
public struct Location: EventBody, Equatable {
    public static let kind = EventKind.location
    public var lat: Double
    public var lon: Double
    /// Horizontal accuracy in metres.
    public var acc: Double?
    public var alt: Double?
    /// Speed in m/s.
    public var speed: Double?
    /// Course over ground in degrees, [0, 360).
    public var course: Double?
    /// Set by ingest on fixes from an OwnTracks phone, so geofence can address its `…/cmd` topic.
    public var ownTracks: OwnTracksOrigin?

    public init(
        lat: Double, lon: Double, acc: Double? = nil, alt: Double? = nil, speed: Double? = nil, course: Double? = nil,
        ownTracks: OwnTracksOrigin? = nil
    ) {
        self.ownTracks = ownTracks
        self.lat = lat
        self.lon = lon
        self.acc = acc
        self.alt = alt
        self.speed = speed
        self.course = course
    }

    enum CodingKeys: String, CodingKey { case lat, lon, acc, alt, speed, course, ownTracks }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        lat = try c.number(.lat, in: -90...90)
        lon = try c.number(.lon, in: -180...180)
        acc = try c.optionalNumber(.acc, in: 0...1e7)
        alt = try c.optionalNumber(.alt, in: -1e5...1e6)
        speed = try c.optionalNumber(.speed, in: 0...1e5)
        course = try c.optionalNumber(.course, in: 0...360, below: 360)
        ownTracks = try c.decodeIfPresent(OwnTracksOrigin.self, forKey: .ownTracks)
    }
}

/// The OwnTracks user and device a fix came from (`owntracks/{user}/{device}`).
public struct OwnTracksOrigin: Codable, Sendable, Equatable {
    public var user: String
    public var device: String

    public init(user: String, device: String) {
        self.user = user
        self.device = device
    }

    enum CodingKeys: String, CodingKey { case user, device }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        user = try c.decode(String.self, forKey: .user)
        device = try c.decode(String.self, forKey: .device)
        try Identifier.validate(user, field: "ownTracks.user")
        try Identifier.validate(device, field: "ownTracks.device")
    }

    /// `owntracks/{user}/{device}/cmd`.
    public var commandTopic: String { Topics.ownTracksCommand(user: user, device: device) }
}
