import GuardianShared

/// The timeline's own settings, read once at start.
public struct TimelineSettings: Sendable, Equatable {
    /// Feedback is batched this long before a device's model retrains (`GUARDIAN_TIMELINE_RETRAIN_DELAY_MS`, default 2000).
    public var retrainDelay: Duration

    public init(settings: SettingsReader) throws(ConfigurationError) {
        retrainDelay = .milliseconds(try settings.integer("GUARDIAN_TIMELINE_RETRAIN_DELAY_MS", default: 2000, in: 0...3_600_000))
    }
}
