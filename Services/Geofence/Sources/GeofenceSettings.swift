import GuardianShared

/// Geofence tuning from the environment (documented in the README's configuration table).
public struct GeofenceSettings: Sendable, Equatable {
    /// Time inside a zone before one `dwell` (GUARDIAN_GEOFENCE_DWELL_MINUTES, default 5).
    public var dwellSeconds: Double = 300
    /// A fix enters at `radius - margin` and exits beyond `radius + margin`, so border jitter does
    /// not flap (GUARDIAN_GEOFENCE_HYSTERESIS_METERS, default 25; at most a quarter of the radius).
    public var hysteresisMeters: Double = 25
    /// Fixes less accurate than this are ignored (GUARDIAN_GEOFENCE_MAX_ACCURACY_METERS, default 100).
    public var maxAccuracyMeters: Double = 100
    /// How many zones an OwnTracks phone watches in hardware (the iOS limit).
    public var waypointCount = 20
    /// An OwnTracks phone's waypoints are recomputed after it moved this far
    /// (GUARDIAN_GEOFENCE_WAYPOINT_REFRESH_METERS, default 500).
    public var waypointRefreshMeters: Double = 500

    public init() {}

    public init(settings: SettingsReader) throws(ConfigurationError) {
        if let minutes = try settings.number("GUARDIAN_GEOFENCE_DWELL_MINUTES", in: 0...1440) { dwellSeconds = minutes * 60 }
        if let margin = try settings.number("GUARDIAN_GEOFENCE_HYSTERESIS_METERS", in: 0...10_000) { hysteresisMeters = margin }
        if let accuracy = try settings.number("GUARDIAN_GEOFENCE_MAX_ACCURACY_METERS", in: 1...100_000) { maxAccuracyMeters = accuracy }
        if let refresh = try settings.number("GUARDIAN_GEOFENCE_WAYPOINT_REFRESH_METERS", in: 1...1_000_000) { waypointRefreshMeters = refresh }
    }

    /// The hysteresis margin of a zone of `radius` metres.
    func margin(radius: Double) -> Double { min(hysteresisMeters, radius / 4) }
}
