import GuardianShared

/// Ingest's own settings, read once at start.
public struct IngestSettings: Sendable, Equatable {
    /// `GUARDIAN_INGEST_RETENTION_DAYS`, the earlier name of `GUARDIAN_INGEST_RETENTION_EVENTS_DAYS`
    /// (which wins when both are set).
    public var legacyEventRetentionDays: Double?

    public init(settings: SettingsReader) throws(ConfigurationError) {
        let current = RetentionPolicy.variable(service: IngestService.name, kind: "events")
        if settings.text(current) == nil {
            legacyEventRetentionDays = try settings.number("GUARDIAN_INGEST_RETENTION_DAYS", in: 0.000_001...36500)
        }
    }
}
