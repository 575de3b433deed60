/// One `snapshot` upload: the brief's SensorSnapshot, which ingest splits into its parts.
/// `activity` may be a bare activity name or a `{activity, confidence}` object.
public struct SensorSnapshot: Decodable, Sendable, Equatable {
    public var location: Location?
    public var motion: Motion?
    public var health: HealthMetrics?
    public var state: DeviceState?

    enum CodingKeys: String, CodingKey { case location, activity, health, state }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        location = try c.decodeIfPresent(Location.self, forKey: .location)
        if let name = try? c.decodeIfPresent(String.self, forKey: .activity) {
            guard let activity = Motion.Activity(rawValue: name) else {
                throw ContractViolation(
                    path: c.codingPath + [CodingKeys.activity],
                    "must be one of \(Motion.Activity.allCases.map(\.rawValue).joined(separator: ", ")), got \(ContractViolation.quote(name))")
            }
            motion = Motion(activity: activity)
        } else {
            motion = try c.decodeIfPresent(Motion.self, forKey: .activity)
        }
        health = try c.decodeIfPresent(HealthMetrics.self, forKey: .health)
        state = try c.decodeIfPresent(DeviceState.self, forKey: .state)
        if location == nil && motion == nil && (health?.isEmpty ?? true) && (state?.isEmpty ?? true) {
            throw ContractViolation(path: c.codingPath, "snapshot has no location, activity, health or state")
        }
    }
}
