/// Time spent in an app (`usage` kind), kept by the command-router for activity queries.
public struct AppUsage: EventBody, Equatable {
    public enum Category: String, Codable, CaseIterable, Sendable { case games, social, video, education, other }

    public static let kind = EventKind.usage
    public var app: String
    public var category: Category?
    public var seconds: Double

    public init(app: String, category: Category? = nil, seconds: Double) {
        self.app = app
        self.category = category
        self.seconds = seconds
    }

    enum CodingKeys: String, CodingKey { case app, category, seconds }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        app = try c.text(.app, maxLength: 128)
        category = try c.optionalChoice(.category, Category.self)
        seconds = try c.number(.seconds, in: 0...(86400 * 366))
    }
}
