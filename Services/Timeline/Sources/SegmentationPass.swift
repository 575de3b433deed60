/// One pass over the annotated events that turns them into time slots.
///
/// - `merge`: consecutive events of the same activity (one of `activities`, or any when `nil`)
///   whose own durations are both under `threshold` become one event; chains merge whole, so a
///   night of short `stationary` events becomes one.
/// - `drop`: an event of one of `activities` (any when `nil`) shorter than `threshold` is removed.
///   Slots have no end of their own (an end is the next start), so its time goes to the event
///   before it; a dropped first event is discarded.
///
/// A merged event keeps the activity of its first event.
public struct SegmentationPass: Sendable, Hashable, Codable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable, Codable {
        case merge, drop
    }

    public var kind: Kind
    /// `nil` means every activity.
    public var activities: Set<MotionActivity>?
    /// Milliseconds.
    public var threshold: Int64

    public init(_ kind: Kind, _ activities: Set<MotionActivity>?, under threshold: Int64) {
        self.kind = kind
        self.activities = activities
        self.threshold = threshold
    }

    public static func merge(_ activities: Set<MotionActivity>?, under threshold: Int64) -> Self {
        Self(.merge, activities, under: threshold)
    }

    public static func drop(_ activities: Set<MotionActivity>?, under threshold: Int64) -> Self {
        Self(.drop, activities, under: threshold)
    }

    /// The passes in the design's order, with their thresholds: the one table to tune.
    public static let standard: [SegmentationPass] = [
        .merge(nil, under: 30 * minute),
        .drop([.stationary, .running, .cycling], under: 3 * minute),
        .merge(nil, under: 60 * minute),
        .drop([.walking], under: 3 * minute),
        .merge([.running, .cycling, .automotive], under: 3 * 60 * minute),
        .drop(nil, under: 5 * minute),
    ]

    public static let minute: Int64 = 60_000

    public var description: String {
        let names = activities.map { $0.map(\.rawValue).sorted().joined(separator: ",") } ?? "all"
        return "\(kind.rawValue) [\(names)] < \(threshold / Self.minute) min"
    }

    func applies(to activity: MotionActivity) -> Bool {
        activities?.contains(activity) ?? true
    }

    /// Whether this merge pass joins two neighbours with these activities and durations.
    func joins(_ left: Span.Shape, _ right: Span.Shape) -> Bool {
        left.activity == right.activity && applies(to: left.activity)
            && left.duration < threshold && right.duration < threshold
    }

    /// Whether this drop pass removes an event with this activity and duration.
    func removes(_ shape: Span.Shape) -> Bool {
        applies(to: shape.activity) && shape.duration < threshold
    }
}
