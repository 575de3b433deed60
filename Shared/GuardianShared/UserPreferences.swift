/// A person's notification settings: retained on `guardian/users/{userId}/preferences`.
public struct UserPreferences: Codable, Sendable, Equatable {
    /// Local `HH:MM` window, possibly across midnight (`22:00`-`07:00`).
    public struct QuietHours: Codable, Sendable, Equatable {
        public var start: String
        public var end: String

        public init(start: String, end: String) {
            self.start = start
            self.end = end
        }

        enum CodingKeys: String, CodingKey { case start, end }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            start = try c.decode(String.self, forKey: .start)
            end = try c.decode(String.self, forKey: .end)
            for (key, value) in [(CodingKeys.start, start), (.end, end)] where QuietHours.minutes(value) == nil {
                throw ContractViolation(path: c.codingPath + [key], "must be HH:MM, got \(ContractViolation.quote(value))")
            }
        }

        /// Minutes after midnight of `HH:MM`.
        public static func minutes(_ text: String) -> Int? {
            let parts = text.split(separator: ":")
            guard parts.count == 2, parts[0].count == 2, parts[1].count == 2, let h = Int(parts[0]), let m = Int(parts[1]), (0..<24).contains(h),
                (0..<60).contains(m)
            else { return nil }
            return h * 60 + m
        }

        /// True when `minuteOfDay` falls in the window (start inclusive, end exclusive).
        public func contains(minuteOfDay: Int) -> Bool {
            guard let s = Self.minutes(start), let e = Self.minutes(end), s != e else { return false }
            return s < e ? (minuteOfDay >= s && minuteOfDay < e) : (minuteOfDay >= s || minuteOfDay < e)
        }
    }

    public var nudgeThreshold: Double?
    public var quietHours: QuietHours?
    public var maxNudgesPerHour: Int?
    public var mutedZones: [String]?
    public var webhookUrl: String?
    /// Guardian's addition: the IANA zone for quiet hours when the user has no device profile.
    public var timezone: String?

    public init(
        nudgeThreshold: Double? = nil, quietHours: QuietHours? = nil, maxNudgesPerHour: Int? = nil, mutedZones: [String]? = nil,
        webhookUrl: String? = nil, timezone: String? = nil
    ) {
        self.nudgeThreshold = nudgeThreshold
        self.quietHours = quietHours
        self.maxNudgesPerHour = maxNudgesPerHour
        self.mutedZones = mutedZones
        self.webhookUrl = webhookUrl
        self.timezone = timezone
    }

    enum CodingKeys: String, CodingKey { case nudgeThreshold, quietHours, maxNudgesPerHour, mutedZones, webhookUrl, timezone }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        nudgeThreshold = try c.optionalNumber(.nudgeThreshold, in: 0...1)
        quietHours = try c.decodeIfPresent(QuietHours.self, forKey: .quietHours)
        maxNudgesPerHour = try c.optionalCount(.maxNudgesPerHour)
        mutedZones = try c.decodeIfPresent([String].self, forKey: .mutedZones)
        for zone in mutedZones ?? [] { try Identifier.validate(zone, field: "mutedZones") }
        webhookUrl = try c.optionalText(.webhookUrl, maxLength: 2048)
        if let url = webhookUrl, !(url.hasPrefix("http://") || url.hasPrefix("https://")) {
            throw ContractViolation(path: c.codingPath + [CodingKeys.webhookUrl], "must be an http:// or https:// URL")
        }
        timezone = try c.optionalText(.timezone, maxLength: 64)
    }
}
