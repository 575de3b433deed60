/// Health and fitness figures (`health` kind); every field optional, none negative.
public struct HealthMetrics: EventBody, Equatable {
    public static let kind = EventKind.health
    public var heartRate: Double?
    public var hrv: Double?
    public var steps: Int?
    public var distance: Double?
    public var activeEnergy: Double?
    public var restingEnergy: Double?
    public var standHours: Int?
    public var exerciseMinutes: Int?
    public var flightsClimbed: Int?
    public var vo2Max: Double?

    public init() {}

    enum CodingKeys: String, CodingKey {
        case heartRate, hrv, steps, distance, activeEnergy, restingEnergy, standHours, exerciseMinutes, flightsClimbed, vo2Max
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        heartRate = try c.optionalNumber(.heartRate, in: 0...400)
        hrv = try c.optionalNumber(.hrv, in: 0...10_000)
        steps = try c.optionalCount(.steps)
        distance = try c.optionalNumber(.distance, in: 0...1e9)
        activeEnergy = try c.optionalNumber(.activeEnergy, in: 0...1e7)
        restingEnergy = try c.optionalNumber(.restingEnergy, in: 0...1e7)
        standHours = try c.optionalCount(.standHours)
        exerciseMinutes = try c.optionalCount(.exerciseMinutes)
        flightsClimbed = try c.optionalCount(.flightsClimbed)
        vo2Max = try c.optionalNumber(.vo2Max, in: 0...150)
    }

    public var isEmpty: Bool { self == HealthMetrics() }
}
