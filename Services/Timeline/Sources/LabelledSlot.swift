/// A slot whose category the user set or voted correct: a training example for the classifier.
public struct LabelledSlot: Sendable, Codable, Hashable {
    public var start: Int64
    /// Milliseconds.
    public var duration: Int64
    public var activity: MotionActivity
    public var location: GeoPoint?
    public var category: TimelineCategory
    /// What the timeline had guessed, when the person corrected it: the correction then applies
    /// to slots of the same kind guessed the same (`CorrectionMemory`).
    public var guessed: TimelineCategory?

    public init(
        start: Int64, duration: Int64, activity: MotionActivity, location: GeoPoint?, category: TimelineCategory, guessed: TimelineCategory? = nil
    ) {
        self.start = start
        self.duration = duration
        self.activity = activity
        self.location = location
        self.category = category
        self.guessed = guessed
    }

    /// The slot as the person labelled it; `guessed` is the slot's category before (unless the person had set it).
    public init(_ span: SlotSpan, category: TimelineCategory) {
        self.init(
            start: span.start, duration: span.duration, activity: span.slot.activity, location: span.slot.location, category: category,
            guessed: span.slot.edited || span.slot.category == .unknown ? nil : span.slot.category)
    }
}
