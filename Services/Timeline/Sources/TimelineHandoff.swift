import Foundation

/// What timeline hands to a device's new shard: its rows as stored (events, timeline, model,
/// corrections), so that the next generation resumes where the old shard left off.
struct TimelineHandoff: Codable, Equatable {
    struct MotionRow: Codable, Equatable {
        var ts: Int64
        var activity: String
    }

    struct LocationRow: Codable, Equatable {
        var ts: Int64
        var lat: Double
        var lon: Double
    }

    struct ChargeRow: Codable, Equatable {
        var ts: Int64
        var charging: Bool
    }

    struct ExampleRow: Codable, Equatable {
        var start: Int64
        var example: Data
    }

    var timezone: String?
    /// The stored `TimelineState`, the first event not yet generated, and the serialized model.
    var state: Data?
    var dirtyFrom: Int64?
    var model: Data?
    var motions: [MotionRow]
    var locations: [LocationRow]
    /// Absent from a hand-off by a shard that kept none.
    var charges: [ChargeRow]?
    var examples: [ExampleRow]
}
