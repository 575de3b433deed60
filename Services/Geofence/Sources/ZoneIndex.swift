/// An in-memory spatial index of circular zones on the sphere, keyed by `UInt32`, answering which
/// zones contain a point and which centres are nearest it, without scanning every zone.
///
/// Centres are unit vectors, so containment is a chord-length test with no special case at the
/// poles or the antimeridian, and agrees with the haversine distance up to rounding (nanometres).
/// Zones sit in hashed 3D grids, one per radius class (`ZoneGrid`), and in an octree of centres
/// (`CentreOctree`) for nearest-zone searches. About 110 bytes a zone.
public struct ZoneIndex: Sendable {
    struct Zone: Sendable, Equatable {
        var x, y, z: Double
        /// Squared chord of the radius, `.infinity` when the zone covers the whole sphere.
        var chordSquared: Double

        var centre: SIMD3<Double> { SIMD3(x, y, z) }
    }

    /// Zone data by slot; slots of removed zones wait in `freeSlots`.
    private(set) var zones: [Zone] = []
    private(set) var keys: [UInt32] = []
    private var freeSlots: [UInt32] = []
    private(set) var slotOfKey: [UInt32: UInt32] = [:]
    private(set) var cells = CellMultimap()
    private(set) var centres = CentreOctree()
    private var classPopulation = [Int](repeating: 0, count: ZoneGrid.classCount)
    /// Radius classes with at least one zone.
    private(set) var activeClasses: [Int] = []
    let grid: ZoneGrid

    /// An empty index whose `containing` and `forEachContaining` look at one cell per radius class for
    /// margins up to 32 m (above that, at a few more).
    public init() {
        self.init(marginSlack: 32)
    }

    /// An empty index tuned for margins up to `marginSlack` metres (any margin still works).
    public init(marginSlack: Double) {
        grid = ZoneGrid(slackMeters: max(0, marginSlack))
    }

    /// Number of zones.
    public var count: Int { slotOfKey.count }

    /// Adds the zone `key`, or moves and resizes it. Latitude is clamped to [-90, 90]; a negative or
    /// NaN radius counts as 0; non-finite coordinates leave the index unchanged.
    public mutating func upsert(key: UInt32, latitude: Double, longitude: Double, radiusMeters: Double) {
        guard latitude.isFinite, longitude.isFinite else { return }
        let centre = GeoMath.unitVector(latitude: min(90, max(-90, latitude)), longitude: longitude)
        let radius = radiusMeters.isNaN ? 0 : max(0, radiusMeters)
        let zone = Zone(x: centre.x, y: centre.y, z: centre.z, chordSquared: GeoMath.chordSquared(forDistance: radius))
        if let slot = slotOfKey[key] {
            let old = zones[Int(slot)]
            guard old != zone else { return }
            unlinkCells(slot, old)
            let moved = old.centre != zone.centre
            if moved { centres.remove(slot, at: old.centre) }
            zones[Int(slot)] = zone
            linkCells(slot, zone)
            if moved { insertCentre(slot) }
            return
        }
        let slot: UInt32
        if let free = freeSlots.popLast() {
            slot = free
            zones[Int(slot)] = zone
            keys[Int(slot)] = key
        } else {
            precondition(zones.count < Int(CellMultimap.listFlag), "ZoneIndex full")
            slot = UInt32(zones.count)
            zones.append(zone)
            keys.append(key)
        }
        slotOfKey[key] = slot
        linkCells(slot, zone)
        insertCentre(slot)
    }

    /// Removes the zone `key`, if present.
    public mutating func remove(key: UInt32) {
        guard let slot = slotOfKey.removeValue(forKey: key) else { return }
        let zone = zones[Int(slot)]
        unlinkCells(slot, zone)
        centres.remove(slot, at: zone.centre)
        freeSlots.append(slot)
        if slotOfKey.isEmpty { self = ZoneIndex(marginSlack: grid.slackMeters) }
    }

    private mutating func insertCentre(_ slot: UInt32) {
        let zones = self.zones
        centres.insert(slot, at: zones[Int(slot)].centre) { zones[Int($0)].centre }
    }

    private mutating func linkCells(_ slot: UInt32, _ zone: Zone) {
        let radiusClass = grid.radiusClass(chordSquared: zone.chordSquared)
        classPopulation[radiusClass] += 1
        if classPopulation[radiusClass] == 1 { updateActiveClasses() }
        let grid = self.grid
        grid.forEachCell(center: zone.centre, chordSquared: zone.chordSquared) { self.cells.insert($0, slot) }
    }

    private mutating func unlinkCells(_ slot: UInt32, _ zone: Zone) {
        let radiusClass = grid.radiusClass(chordSquared: zone.chordSquared)
        classPopulation[radiusClass] -= 1
        if classPopulation[radiusClass] == 0 { updateActiveClasses() }
        let grid = self.grid
        grid.forEachCell(center: zone.centre, chordSquared: zone.chordSquared) { self.cells.remove($0, slot) }
    }

    private mutating func updateActiveClasses() {
        activeClasses = classPopulation.indices.filter { classPopulation[$0] > 0 }
    }

    /// Heap bytes the index holds (capacities, not just contents).
    public var memoryBytes: Int {
        // A Swift dictionary keeps keys and values in power-of-two bucket arrays at most 3/4 full, plus a bitmap.
        var dictionaryBuckets = slotOfKey.capacity == 0 ? 0 : 1
        while dictionaryBuckets * 3 / 4 < slotOfKey.capacity { dictionaryBuckets *= 2 }
        return zones.capacity * MemoryLayout<Zone>.stride + keys.capacity * 4 + freeSlots.capacity * 4
            + dictionaryBuckets * (2 * MemoryLayout<UInt32>.stride) + dictionaryBuckets / 8
            + cells.memoryBytes + centres.memoryBytes
    }
}
