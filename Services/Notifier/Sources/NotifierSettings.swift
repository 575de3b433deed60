import GuardianShared

/// The notifier's own settings, read once at start.
public struct NotifierSettings: Sendable, Equatable {
    /// The same zone does not nudge the same person again within this many seconds
    /// (`GUARDIAN_NOTIFIER_ZONE_COOLDOWN_MINUTES`, default 60).
    public var zoneCooldown: Double?
    /// The first webhook retry delay in seconds (`GUARDIAN_NOTIFIER_WEBHOOK_BASE_DELAY_MS`, default 1000).
    public var webhookBaseDelay: Double?

    public init(settings: SettingsReader) throws(ConfigurationError) {
        zoneCooldown = try settings.number("GUARDIAN_NOTIFIER_ZONE_COOLDOWN_MINUTES", in: 0...525_600).map { $0 * 60 }
        webhookBaseDelay = try settings.number("GUARDIAN_NOTIFIER_WEBHOOK_BASE_DELAY_MS", in: 1...3_600_000).map { $0 / 1000 }
    }
}
