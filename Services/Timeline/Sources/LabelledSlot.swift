/// A slot whose category the user set or voted correct: a training example for the classifier.
public struct LabelledSlot: Sendable, Codable, Hashable {
    public var start: Int64
    /// Milliseconds.
    public var duration: Int64
    public var activity: MotionActivity
    public var location: GeoPoint?
    public var category: TimelineCategory

    public init(start: Int64, duration: Int64, activity: MotionActivity, location: GeoPoint?, category: TimelineCategory) {
        self.start = start
        self.duration = duration
        self.activity = activity
        self.location = location
        self.category = category
    }

    public init(_ span: SlotSpan, category: TimelineCategory) {
        self.init(start: span.start, duration: span.duration, activity: span.slot.activity, location: span.slot.location, category: category)
    }
}
