import GuardianShared

/// Every danger zone, by id, with the spatial index over them.
struct ZoneCatalog: Sendable {
    private(set) var index = ZoneIndex()
    private var keys: [String: UInt32] = [:]
    private var entries: [UInt32: (id: String, zone: DangerZone)] = [:]
    private var nextKey: UInt32 = 0

    var count: Int { entries.count }

    subscript(id: String) -> DangerZone? { keys[id].flatMap { entries[$0]?.zone } }

    mutating func upsert(id: String, zone: DangerZone) {
        let key: UInt32
        if let existing = keys[id] {
            key = existing
        } else {
            key = nextKey
            nextKey += 1
            keys[id] = key
        }
        entries[key] = (id, zone)
        index.upsert(key: key, latitude: zone.lat, longitude: zone.lon, radiusMeters: zone.radius)
    }

    @discardableResult
    mutating func remove(id: String) -> DangerZone? {
        guard let key = keys.removeValue(forKey: id) else { return nil }
        index.remove(key: key)
        return entries.removeValue(forKey: key)?.zone
    }

    /// Zones whose circle, widened by `margin`, contains the point, with the distance to their centre.
    func containing(latitude: Double, longitude: Double, margin: Double = 0) -> [(id: String, zone: DangerZone, distance: Double)] {
        var found: [(String, DangerZone, Double)] = []
        index.forEachContaining(latitude: latitude, longitude: longitude, margin: margin) { key, distance in
            if let entry = entries[key] { found.append((entry.id, entry.zone, distance)) }
        }
        return found
    }

    /// The `limit` zones nearest the point, nearest first.
    func nearest(latitude: Double, longitude: Double, limit: Int) -> [(id: String, zone: DangerZone, distance: Double)] {
        index.nearest(latitude: latitude, longitude: longitude, limit: limit).compactMap { hit in
            entries[hit.key].map { ($0.id, $0.zone, hit.distance) }
        }
    }
}
