extension ZoneIndex {
    /// Keys of every zone whose great-circle distance from the point is at most its radius plus
    /// `margin` metres, in no particular order.
    public func containing(latitude: Double, longitude: Double, margin: Double = 0) -> [UInt32] {
        var found: [UInt32] = []
        keys.withUnsafeBufferPointer { keys in
            visitContaining(latitude: latitude, longitude: longitude, margin: margin) { slot, _ in found.append(keys[slot]) }
        }
        return found
    }

    /// Calls `body` with the key and centre distance (metres) of every zone `containing` would
    /// return, without allocating for margins up to the index's slack.
    public func forEachContaining(
        latitude: Double, longitude: Double, margin: Double = 0, _ body: (UInt32, Double) -> Void
    ) {
        keys.withUnsafeBufferPointer { keys in
            zones.withUnsafeBufferPointer { zones in
                visitContaining(latitude: latitude, longitude: longitude, margin: margin) { slot, p in
                    let zone = zones[slot]
                    body(keys[slot], GeoMath.distance(p, SIMD3(zone.x, zone.y, zone.z)))
                }
            }
        }
    }

    /// Whether a centre at squared chord `distanceSquared` is within the zone's radius plus `angleMargin` radians.
    @inline(__always)
    static func isWithin(_ distanceSquared: Double, _ chordSquared: Double, angleMargin: Double) -> Bool {
        if distanceSquared <= chordSquared && angleMargin >= 0 { return true }
        if angleMargin == 0 { return false }
        let angle = GeoMath.angle(forChordSquared: chordSquared) + angleMargin
        return distanceSquared <= GeoMath.chordSquared(forAngle: angle)
    }

    /// Calls `visit` once with the slot of each containing zone and the point's unit vector.
    @inline(__always)
    func visitContaining(latitude: Double, longitude: Double, margin: Double, _ visit: (Int, SIMD3<Double>) -> Void) {
        guard latitude.isFinite, longitude.isFinite, !margin.isNaN, !activeClasses.isEmpty else { return }
        let p = GeoMath.unitVector(latitude: min(90, max(-90, latitude)), longitude: longitude)
        let angleMargin = margin / GeoMath.earthRadius
        guard margin <= grid.slackMeters else {
            return visitContainingWide(p, angleMargin: angleMargin, visit)
        }
        zones.withUnsafeBufferPointer { zones in
            cells.slots.withUnsafeBufferPointer { slots in
                cells.pool.words.withUnsafeBufferPointer { words in
                    @inline(__always)
                    func check(_ slot: UInt32) {
                        let zone = zones[Int(slot)]
                        let dx = p.x - zone.x
                        let dy = p.y - zone.y
                        let dz = p.z - zone.z
                        if Self.isWithin(dx * dx + dy * dy + dz * dz, zone.chordSquared, angleMargin: angleMargin) {
                            visit(Int(slot), p)
                        }
                    }
                    for radiusClass in activeClasses {
                        let key = grid.cellKey(radiusClass, p.x, p.y, p.z)
                        guard let reference = CellMultimap.find(key, in: slots) else { continue }
                        if reference & CellMultimap.listFlag == 0 {
                            check(reference)
                        } else {
                            for slot in BlockPool.values(reference & ~CellMultimap.listFlag, in: words) { check(slot) }
                        }
                    }
                }
            }
        }
    }

    /// Margins beyond the slack: every cell within `margin - slack` of the point, de-duplicated,
    /// or a scan of every zone when that is cheaper (a cell costs about as much as 16 zones).
    private func visitContainingWide(_ p: SIMD3<Double>, angleMargin: Double, _ visit: (Int, SIMD3<Double>) -> Void) {
        func isWithin(_ slot: Int) -> Bool {
            let d = p - zones[slot].centre
            return Self.isWithin((d * d).sum(), zones[slot].chordSquared, angleMargin: angleMargin)
        }
        let halfWidth = angleMargin - grid.slackMeters / GeoMath.earthRadius
        let columns = activeClasses.reduce(0.0) { total, radiusClass in
            let side = 2 * halfWidth * grid.inverseEdges[radiusClass] + 2
            return total + side * side
        }
        var found: [Int] = []
        if columns * 16 > Double(count) {
            for slot in 0..<zones.count where isWithin(slot) && isLive(slot) { found.append(slot) }
        } else {
            for radiusClass in activeClasses {
                grid.forEachCell(radiusClass, around: p, halfWidth: halfWidth) { key in
                    cells.forEach(key) { slot in if isWithin(Int(slot)) { found.append(Int(slot)) } }
                }
            }
            found.sort()
        }
        var previous = -1
        for slot in found where slot != previous {
            visit(slot, p)
            previous = slot
        }
    }

    func isLive(_ slot: Int) -> Bool { slotOfKey[keys[slot]] == UInt32(slot) }
}
