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
