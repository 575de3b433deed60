import GuardianShared

/// The geofence rules for one fix: ignore inaccurate or out-of-order fixes; `enter` inside
/// `radius - margin`, `exit` beyond `radius + margin`, one `dwell` after the configured time inside.
struct VisitTracker: Sendable {
    enum Verdict: Equatable {
        case inaccurate
        case outOfOrder
        case accepted([VisitStep])
    }

    let settings: GeofenceSettings

    func evaluate(_ fix: Location, at ts: Timestamp, state: inout DeviceVisits, zones: ZoneCatalog) -> Verdict {
        if let accuracy = fix.acc, accuracy > settings.maxAccuracyMeters { return .inaccurate }
        if let last = state.lastFix, ts <= last { return .outOfOrder }
        state.lastFix = ts
        state.lastPosition = (fix.lat, fix.lon)
        var steps: [VisitStep] = []

        // Visits in progress: leave beyond radius + margin (or when the zone is gone), else maybe dwell.
        for (zoneId, visit) in state.visits.sorted(by: { $0.key < $1.key }) {
            let elapsed = Double(ts.milliseconds - visit.enteredAt.milliseconds) / 1000
            guard let zone = zones[zoneId] else {
                steps.append(VisitStep(type: .exit, zoneId: zoneId, distance: .nan, dwellSeconds: elapsed))
                state.visits[zoneId] = nil
                continue
            }
            let distance = GeoMath.distance(latitude1: fix.lat, longitude1: fix.lon, latitude2: zone.lat, longitude2: zone.lon)
            if distance > zone.radius + settings.margin(radius: zone.radius) {
                steps.append(VisitStep(type: .exit, zoneId: zoneId, distance: distance, dwellSeconds: elapsed))
                state.visits[zoneId] = nil
            } else if !visit.dwellReported && elapsed >= settings.dwellSeconds {
                steps.append(VisitStep(type: .dwell, zoneId: zoneId, distance: distance, dwellSeconds: elapsed))
                state.visits[zoneId]?.dwellReported = true
            }
        }

        // New visits: well inside the circle.
        for hit in zones.containing(latitude: fix.lat, longitude: fix.lon).sorted(by: { $0.id < $1.id })
        where state.visits[hit.id] == nil && hit.distance <= hit.zone.radius - settings.margin(radius: hit.zone.radius) {
            steps.append(VisitStep(type: .enter, zoneId: hit.id, distance: hit.distance, dwellSeconds: 0))
            state.visits[hit.id] = DeviceVisits.Visit(enteredAt: ts, dwellReported: false)
        }
        return .accepted(steps)
    }

    /// A zone was deleted: every visit to it ends where the device was last seen.
    func zoneRemoved(_ zoneId: String, zone: DangerZone, state: inout DeviceVisits) -> VisitStep? {
        guard let visit = state.visits.removeValue(forKey: zoneId) else { return nil }
        let elapsed = Double((state.lastFix ?? visit.enteredAt).milliseconds - visit.enteredAt.milliseconds) / 1000
        let distance = state.lastPosition.map {
            GeoMath.distance(latitude1: $0.lat, longitude1: $0.lon, latitude2: zone.lat, longitude2: zone.lon)
        } ?? 0
        return VisitStep(type: .exit, zoneId: zoneId, distance: distance, dwellSeconds: max(0, elapsed))
    }
}
