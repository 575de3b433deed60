import GuardianShared

/// What geofence remembers about one device: its last accepted fix and the zones it is inside.
struct DeviceVisits: Sendable, Equatable {
    struct Visit: Sendable, Equatable {
        var enteredAt: Timestamp
        var dwellReported: Bool
    }

    var lastFix: Timestamp?
    var lastPosition: (lat: Double, lon: Double)?
    var visits: [String: Visit] = [:]
    /// Where the phone's waypoints were last computed, and which zones they were.
    var waypointCenter: (lat: Double, lon: Double)?
    var waypointZones: [String] = []
    /// The last fix as of the stored copy of this state.
    var savedFix: Timestamp?
    /// The latest phone transition handled since the service started (memory only), which a
    /// hand-off to another shard carries.
    var lastTransition: Timestamp?

    /// How much device time may pass before a state whose visits did not change is stored anyway.
    static let saveInterval: Int64 = 60_000

    /// Whether this state must be stored: its visits or waypoints differ from `stored` (the state before
    /// this fix), or its last fix is a minute newer than the stored one. Fixes that change nothing are
    /// not written one by one: after a restart, the broker redelivers what was not acknowledged, and
    /// replaying fixes that changed nothing changes nothing.
    func needsSaving(comparedTo stored: DeviceVisits?) -> Bool {
        guard let stored, let lastFix, let savedFix else { return true }
        return visits != stored.visits || waypointZones != stored.waypointZones || waypointCenter?.lat != stored.waypointCenter?.lat
            || waypointCenter?.lon != stored.waypointCenter?.lon || lastFix.milliseconds - savedFix.milliseconds >= Self.saveInterval
    }

    static func == (a: DeviceVisits, b: DeviceVisits) -> Bool {
        a.lastFix == b.lastFix && a.visits == b.visits && a.lastPosition?.lat == b.lastPosition?.lat
            && a.lastPosition?.lon == b.lastPosition?.lon && a.waypointZones == b.waypointZones
            && a.waypointCenter?.lat == b.waypointCenter?.lat && a.waypointCenter?.lon == b.waypointCenter?.lon
    }
}

/// One step of a visit found by the tracker, before it becomes a `GeofenceEvent`.
struct VisitStep: Sendable, Equatable {
    var type: GeofenceEvent.Kind
    var zoneId: String
    var distance: Double
    var dwellSeconds: Double
}
