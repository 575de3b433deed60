/// A merchant where the user has regretted purchases: retained on `guardian/zones/{zoneId}`.
public struct DangerZone: Codable, Sendable, Equatable {
    public static let defaultRadius = 200.0

    public var name: String
    public var lat: Double
    public var lon: Double
    /// Metres; 200 when not given.
    public var radius: Double
    public var merchant: String?
    public var category: String?
    /// Share of purchases here that were regretted, [0, 1].
    public var regretRate: Double?
    public var regretCount: Int?

    public init(
        name: String, lat: Double, lon: Double, radius: Double = DangerZone.defaultRadius, merchant: String? = nil,
        category: String? = nil, regretRate: Double? = nil, regretCount: Int? = nil
    ) {
        self.name = name
        self.lat = lat
        self.lon = lon
        self.radius = radius
        self.merchant = merchant
        self.category = category
        self.regretRate = regretRate
        self.regretCount = regretCount
    }

    enum CodingKeys: String, CodingKey { case name, lat, lon, radius, merchant, category, regretRate, regretCount }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.text(.name, maxLength: 128)
        lat = try c.number(.lat, in: -90...90)
        lon = try c.number(.lon, in: -180...180)
        radius = try c.optionalNumber(.radius, in: 1...100_000) ?? DangerZone.defaultRadius
        merchant = try c.optionalText(.merchant, maxLength: 128)
        category = try c.optionalText(.category, maxLength: 64)
        regretRate = try c.optionalNumber(.regretRate, in: 0...1)
        regretCount = try c.optionalCount(.regretCount)
    }
}
