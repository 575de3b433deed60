/// What the device's motion coprocessor thinks the person is doing (`motion` kind).
public struct Motion: EventBody, Equatable {
    public enum Activity: String, Codable, CaseIterable, Sendable {
        case stationary, walking, running, cycling, automotive, unknown
    }

    public enum Confidence: String, Codable, CaseIterable, Sendable {
        case low, medium, high
    }

    public static let kind = EventKind.motion
    public var activity: Activity
    public var confidence: Confidence?

    public init(activity: Activity, confidence: Confidence? = nil) {
        self.activity = activity
        self.confidence = confidence
    }

    enum CodingKeys: String, CodingKey { case activity, confidence }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        activity = try c.choice(.activity, Activity.self)
        confidence = try c.optionalChoice(.confidence, Confidence.self)
    }
}
