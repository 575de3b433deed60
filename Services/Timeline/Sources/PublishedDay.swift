import Foundation
import GuardianShared

/// A local day as published retained on `guardian/timeline/{deviceId}/days/{YYYY-MM-DD}`:
/// `{deviceId, date, timezone, generatedAt, slots: [{start, end, category, confidence, activity, location?, edited}]}`,
/// times in the contract's RFC 3339 UTC form.
public struct PublishedDay: Codable, Sendable, Equatable {
    public struct Slot: Codable, Sendable, Equatable {
        public var start: Timestamp
        public var end: Timestamp
        public var category: TimelineCategory
        public var confidence: Double
        public var activity: MotionActivity
        public var location: GeoPoint?
        public var edited: Bool
    }

    public var deviceId: String
    public var date: String
    public var timezone: String
    public var generatedAt: Timestamp
    public var slots: [Slot]

    public init(deviceId: String, day: DayTimeline, generatedAt: Timestamp) {
        self.deviceId = deviceId
        date = day.date
        timezone = day.timezone
        self.generatedAt = generatedAt
        slots = day.slots.map {
            Slot(
                start: Timestamp(milliseconds: $0.start), end: Timestamp(milliseconds: $0.end), category: $0.category,
                confidence: ($0.confidence * 1000).rounded() / 1000, activity: $0.activity, location: $0.location, edited: $0.edited)
        }
    }

    /// The day in the core's terms (for drawing).
    public var dayTimeline: DayTimeline? {
        DayTimeline(
            date: date, timezone: timezone,
            slots: slots.map {
                DayTimeline.Slot(
                    start: $0.start.milliseconds, end: $0.end.milliseconds, category: $0.category, confidence: $0.confidence,
                    activity: $0.activity, location: $0.location, edited: $0.edited)
            })
    }
}

/// A correction or a vote on `guardian/timeline/{deviceId}/feedback`: `{start, category}` or
/// `{start, vote: "correct"}`; `start` may be any instant inside the slot.
public struct TimelineFeedback: Decodable, Sendable, Equatable {
    public enum Verdict: Sendable, Equatable {
        case correct(TimelineCategory)
        case confirm
    }

    public var start: Timestamp
    public var verdict: Verdict

    enum CodingKeys: String, CodingKey { case start, category, vote }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        start = try c.decode(Timestamp.self, forKey: .start)
        if let category = try c.optionalChoice(.category, TimelineCategory.self) {
            verdict = .correct(category)
        } else if try c.decodeIfPresent(String.self, forKey: .vote) == "correct" {
            verdict = .confirm
        } else {
            throw ContractViolation(path: c.codingPath, "needs category, or vote: \"correct\"")
        }
    }
}

/// `guardian/timeline/{deviceId}/generate`: `{}` or `{from?, to?}`.
public struct GenerateRequest: Decodable, Sendable, Equatable {
    /// Re-generate from here (earlier than the last generation means a full rebuild).
    public var from: Timestamp?
    /// Generate up to here (default: the latest event).
    public var to: Timestamp?
}
