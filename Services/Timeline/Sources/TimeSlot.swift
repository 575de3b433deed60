/// A stretch of the timeline, stored by its start only: it ends where the next slot starts
/// (the last one at the generation time). Slots are not broken at midnight.
public struct TimeSlot: Sendable, Codable, Hashable {
    /// Milliseconds since the Unix epoch.
    public var start: Int64
    public var category: TimelineCategory
    /// The classifier's probability for `category` (for `unknown`, that of the best category);
    /// 1 for a slot the user set.
    public var confidence: Double
    /// The activity that took most of the slot's time.
    public var activity: MotionActivity
    /// The location in effect for most of the slot's time.
    public var location: GeoPoint?
    /// The user set the category (or the start).
    public var edited: Bool
    /// For a stay: `true` when it ends with movement too short to be a slot (getting up, a
    /// walk to the car) or where its night begins or ends (`NightSplit`), `nil` otherwise; stays
    /// that follow one another without it (motion missing for a while) are one visit.
    public var endsMoving: Bool?
    /// For a stay: `true` when it ends where the charger was plugged in or out (within
    /// `NightSplit.signNear`); for movement, when it was plugged in or out during it:
    /// going to bed or getting up, the night's end the phone shows for certain.
    public var endsAtCharger: Bool?
    /// For a walk: `true` for walking about one place, stopping now and then (`WalkingAbout`),
    /// `nil` otherwise.
    public var aboutOnePlace: Bool?
    /// For walking about one place: `true` when running took `WalkingAbout.runningShare` of it or
    /// more (a pitch, a track), `nil` otherwise.
    public var ranAbout: Bool?

    public init(
        start: Int64, category: TimelineCategory = .unknown, confidence: Double = 0,
        activity: MotionActivity, location: GeoPoint?, edited: Bool = false
    ) {
        self.start = start
        self.category = category
        self.confidence = confidence
        self.activity = activity
        self.location = location
        self.edited = edited
    }
}

/// A slot with its end, as the classifier and the day view need it.
public struct SlotSpan: Sendable, Codable, Hashable {
    public var slot: TimeSlot
    public var end: Int64

    public init(slot: TimeSlot, end: Int64) {
        self.slot = slot
        self.end = end
    }

    public var start: Int64 { slot.start }
    public var duration: Int64 { end - slot.start }
}

extension TimeSlot {
    /// A stretch without data (see `AnnotatedEvent.longestSilence`): never labelled or published.
    public var isGap: Bool { activity == .unknown }
}
