import Foundation
@testable import GuardianGeofence
import Testing

/// SplitMix64: a seeded generator, so a failure reproduces.
private struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The reference: every zone checked with the haversine distance.
private struct BruteForceZones {
    struct Zone {
        var key: UInt32
        var latitude, longitude, radius: Double
    }

    /// Arrays rather than a dictionary: a debug build scans them several times faster.
    private(set) var all: [Zone] = []
    private var position: [UInt32: Int] = [:]
    /// `all` by latitude, rebuilt after changes: a containment scan only needs a band of latitudes.
    private var byLatitude: [Zone] = []
    private var largestRadius = 0.0
    /// Points this close to a border may fall either way.
    static let borderTolerance = 0.01

    var count: Int { all.count }
    var keys: [UInt32] { all.map(\.key) }
    subscript(key: UInt32) -> Zone? { position[key].map { all[$0] } }

    mutating func upsert(_ zone: Zone) {
        byLatitude = []
        largestRadius = max(largestRadius, zone.radius)
        if let i = position[zone.key] {
            all[i] = zone
        } else {
            position[zone.key] = all.count
            all.append(zone)
        }
    }

    mutating func remove(_ key: UInt32) {
        guard let i = position.removeValue(forKey: key) else { return }
        byLatitude = []
        let last = all.removeLast()
        if i < all.count {
            all[i] = last
            position[last.key] = i
        }
    }

    /// Zones within radius + margin, with the distance to their centre, plus those within the
    /// border tolerance either side (`uncertain`).
    mutating func containing(latitude: Double, longitude: Double, margin: Double) -> (sure: [UInt32: Double], uncertain: Set<UInt32>) {
        var sure: [UInt32: Double] = [:]
        var uncertain: Set<UInt32> = []
        if byLatitude.count != all.count { byLatitude = all.sorted { $0.latitude < $1.latitude } }
        // The great-circle distance is at least R times the latitude difference.
        let band = (largestRadius + margin + 1) / (Double.pi / 180 * GeoMath.earthRadius)
        var low = 0
        var high = byLatitude.count
        while low < high {
            let middle = (low + high) / 2
            if byLatitude[middle].latitude < latitude - band { low = middle + 1 } else { high = middle }
        }
        for zone in byLatitude[low...] {
            if zone.latitude > latitude + band { break }
            let d = GeoMath.distance(latitude1: latitude, longitude1: longitude, latitude2: zone.latitude, longitude2: zone.longitude)
            if abs(d - (zone.radius + margin)) <= Self.borderTolerance {
                uncertain.insert(zone.key)
            } else if d <= zone.radius + margin {
                sure[zone.key] = d
            }
        }
        return (sure, uncertain)
    }

    func nearest(latitude: Double, longitude: Double, limit: Int, within maxDistance: Double) -> [(key: UInt32, distance: Double)] {
        var best: [(key: UInt32, distance: Double)] = []
        let metresPerDegree = Double.pi / 180 * GeoMath.earthRadius
        for zone in all {
            let reach = best.count == limit ? best[limit - 1].distance : maxDistance
            if abs(zone.latitude - latitude) * metresPerDegree > reach + 1 { continue }
            let d = GeoMath.distance(latitude1: latitude, longitude1: longitude, latitude2: zone.latitude, longitude2: zone.longitude)
            guard d <= maxDistance else { continue }
            let i = best.firstIndex { (d, zone.key) < ($0.distance, $0.key) } ?? best.count
            if i < limit {
                best.insert((zone.key, d), at: i)
                if best.count > limit { best.removeLast() }
            }
        }
        return best
    }
}

/// An index and its brute-force reference, changed together.
private struct IndexUnderTest {
    var index = ZoneIndex()
    var reference = BruteForceZones()

    mutating func upsert(_ key: UInt32, _ latitude: Double, _ longitude: Double, _ radius: Double) {
        index.upsert(key: key, latitude: latitude, longitude: longitude, radiusMeters: radius)
        reference.upsert(.init(key: key, latitude: latitude, longitude: longitude, radius: radius))
    }

    mutating func remove(_ key: UInt32) {
        index.remove(key: key)
        reference.remove(key)
    }

    /// Compares `containing` and `forEachContaining` with the reference; returns how many zones were found.
    @discardableResult
    mutating func checkContaining(_ latitude: Double, _ longitude: Double, margin: Double = 0, sourceLocation: SourceLocation = #_sourceLocation) -> Int {
        let (sure, uncertain) = reference.containing(latitude: latitude, longitude: longitude, margin: margin)
        let found = index.containing(latitude: latitude, longitude: longitude, margin: margin)
        let foundSet = Set(found)
        #expect(foundSet.count == found.count, "duplicates at \(latitude), \(longitude)", sourceLocation: sourceLocation)
        let missing = Set(sure.keys).subtracting(foundSet)
        let extra = foundSet.subtracting(sure.keys).subtracting(uncertain)
        #expect(missing.isEmpty && extra.isEmpty, "at \(latitude), \(longitude) margin \(margin): missing \(missing.sorted()), extra \(extra.sorted())",
                sourceLocation: sourceLocation)
        var visited = 0
        index.forEachContaining(latitude: latitude, longitude: longitude, margin: margin) { key, distance in
            visited += 1
            if let expected = sure[key] {
                #expect(abs(distance - expected) < 0.001, "distance to \(key): \(distance) vs \(expected)", sourceLocation: sourceLocation)
            }
        }
        #expect(visited == found.count, sourceLocation: sourceLocation)
        return found.count
    }

    func checkNearest(_ latitude: Double, _ longitude: Double, limit: Int, within maxDistance: Double = .infinity,
                      sourceLocation: SourceLocation = #_sourceLocation) {
        let expected = reference.nearest(latitude: latitude, longitude: longitude, limit: limit, within: maxDistance)
        let got = index.nearest(latitude: latitude, longitude: longitude, limit: limit, within: maxDistance)
        // Equal up to rounding: same distances in order, and each key really at its distance.
        let matches = got.count == expected.count
            && zip(got, expected).allSatisfy { abs($0.distance - $1.distance) < 0.001 }
            && got.allSatisfy { hit in
                guard let zone = reference[hit.key] else { return false }
                let d = GeoMath.distance(latitude1: latitude, longitude1: longitude, latitude2: zone.latitude, longitude2: zone.longitude)
                return abs(d - hit.distance) < 0.001
            }
            && Set(got.map(\.key)).count == got.count
        #expect(matches, "nearest \(limit) at \(latitude), \(longitude): \(got.map(\.key)) vs \(expected.map(\.key))", sourceLocation: sourceLocation)
    }
}

fileprivate extension RandomNumberGenerator {
    /// Uniform on the sphere.
    mutating func position() -> (latitude: Double, longitude: Double) {
        (asin(Double.random(in: -1...1, using: &self)) * 180 / .pi, Double.random(in: -180...180, using: &self))
    }

    /// Realistic radii: log-uniform over 20 m ... 50 km.
    mutating func radius() -> Double { exp(Double.random(in: log(20.0)...log(50_000.0), using: &self)) }

    /// A point `distance` metres from the position, in a random direction.
    mutating func offset(_ latitude: Double, _ longitude: Double, by distance: Double) -> (latitude: Double, longitude: Double) {
        let bearing = Double.random(in: 0..<(2 * .pi), using: &self)
        let δ = distance / GeoMath.earthRadius
        let φ = latitude * .pi / 180
        let λ = longitude * .pi / 180
        let φ2 = asin(min(1, max(-1, sin(φ) * cos(δ) + cos(φ) * sin(δ) * cos(bearing))))
        let λ2 = λ + atan2(sin(bearing) * sin(δ) * cos(φ), cos(δ) - sin(φ) * sin(φ2))
        var longitude2 = λ2 * 180 / .pi
        if longitude2 > 180 { longitude2 -= 360 }
        if longitude2 < -180 { longitude2 += 360 }
        return (φ2 * 180 / .pi, longitude2)
    }
}

@Suite("ZoneIndex against a brute-force haversine scan")
struct ZoneIndexTests {
    @Test("great-circle distances at the poles and across the antimeridian")
    func geoMath() {
        let halfCircumference = Double.pi * GeoMath.earthRadius
        #expect(abs(GeoMath.distance(latitude1: 90, longitude1: 0, latitude2: -90, longitude2: 123) - halfCircumference) < 1e-6)
        #expect(GeoMath.distance(latitude1: 90, longitude1: 0, latitude2: 90, longitude2: 137) < 1e-6)
        let across = GeoMath.distance(latitude1: 0, longitude1: 179.995, latitude2: 0, longitude2: -179.995)
        #expect(abs(across - 0.01 * .pi / 180 * GeoMath.earthRadius) < 1e-6)
        let a = GeoMath.unitVector(latitude: 89.999, longitude: -179.99)
        let b = GeoMath.unitVector(latitude: 89.999, longitude: 179.99)
        let expected = GeoMath.distance(latitude1: 89.999, longitude1: -179.99, latitude2: 89.999, longitude2: 179.99)
        #expect(abs(GeoMath.distance(a, b) - expected) < 1e-6)
        let back = GeoMath.coordinates(of: GeoMath.unitVector(latitude: -33.5, longitude: 151.25))
        #expect(abs(back.latitude + 33.5) < 1e-12 && abs(back.longitude - 151.25) < 1e-12)
        #expect(GeoMath.chordSquared(forDistance: halfCircumference) == .infinity)
    }

    @Test("random zones and fixes worldwide")
    func worldwide() {
        var rng = SeededGenerator(seed: 1)
        var t = IndexUnderTest()
        for key in 0..<UInt32(20_000) {
            let (lat, lon) = rng.position()
            t.upsert(key, lat, lon, rng.radius())
        }
        #expect(t.index.count == 20_000)
        var hits = 0
        for _ in 0..<1_000 {
            let (lat, lon) = rng.position()
            hits += t.checkContaining(lat, lon)
            let zone = t.reference[UInt32.random(in: 0..<20_000, using: &rng)]!
            let fix = rng.offset(zone.latitude, zone.longitude, by: zone.radius * Double.random(in: 0...1.2, using: &rng))
            hits += t.checkContaining(fix.latitude, fix.longitude)
        }
        #expect(hits > 800)
    }

    @Test("fixes 5 cm inside and outside the border, with and without margins, anywhere on the globe")
    func borders() {
        var rng = SeededGenerator(seed: 9)
        var t = IndexUnderTest()
        for key in 0..<UInt32(2_000) {
            let (lat, lon): (Double, Double)
            switch key % 4 {
            case 0: (lat, lon) = (Double.random(in: 85...90, using: &rng) * (key % 8 == 0 ? 1 : -1), Double.random(in: -180...180, using: &rng))
            case 1: (lat, lon) = (Double.random(in: -60...60, using: &rng), key % 8 == 1 ? 179.999 : -179.999)
            default: (lat, lon) = rng.position()
            }
            t.upsert(key, lat, lon, rng.radius())
        }
        for key in 0..<UInt32(2_000) {
            let zone = t.reference[key]!
            let margin: Double = [0, 0, 25, 32, 100][Int(key % 5)]
            for delta in [-0.05, 0.05] {
                let fix = rng.offset(zone.latitude, zone.longitude, by: zone.radius + margin + delta)
                t.checkContaining(fix.latitude, fix.longitude, margin: margin)
                let inside = t.index.containing(latitude: fix.latitude, longitude: fix.longitude, margin: margin).contains(key)
                #expect(inside == (delta < 0), "zone \(key) at \(zone.latitude), \(zone.longitude), fix \(delta) m from radius + \(margin)")
            }
        }
    }

    @Test("clusters above 85° and at exactly ±90°")
    func highLatitudes() {
        var rng = SeededGenerator(seed: 2)
        var t = IndexUnderTest()
        for key in 0..<UInt32(3_000) {
            let pole: Double = key % 2 == 0 ? 1 : -1
            let lat = key % 10 == 0 ? 90 * pole : pole * Double.random(in: 85...90, using: &rng)
            t.upsert(key, lat, Double.random(in: -180...180, using: &rng), exp(Double.random(in: log(20.0)...log(20_000.0), using: &rng)))
        }
        for i in 0..<1_000 {
            let pole: Double = i % 2 == 0 ? 1 : -1
            let lat = i % 10 == 0 ? 90 * pole : pole * (90 - exp(Double.random(in: log(1e-7)...log(6.0), using: &rng)))
            t.checkContaining(lat, Double.random(in: -180...180, using: &rng))
        }
        for lon in stride(from: -180.0, through: 180, by: 45) {
            t.checkContaining(90, lon)
            t.checkContaining(-90, lon)
            t.checkNearest(90, lon, limit: 20)
            t.checkNearest(-89.9999, lon, limit: 20, within: 50_000)
        }
    }

    @Test("zones straddling the antimeridian")
    func antimeridian() {
        var rng = SeededGenerator(seed: 3)
        var t = IndexUnderTest()
        for key in 0..<UInt32(3_000) {
            let lon = [179.99, -179.99, 180, -180][Int(key % 4)] + Double.random(in: -0.01...0.01, using: &rng)
            t.upsert(key, Double.random(in: -80...80, using: &rng), lon, exp(Double.random(in: log(20.0)...log(5_000.0), using: &rng)))
        }
        for _ in 0..<1_000 {
            let zone = t.reference[UInt32.random(in: 0..<3_000, using: &rng)]!
            let fix = rng.offset(zone.latitude, zone.longitude, by: zone.radius * Double.random(in: 0...1.5, using: &rng))
            t.checkContaining(fix.latitude, fix.longitude)
        }
        for _ in 0..<200 {
            let lat = Double.random(in: -80...80, using: &rng)
            #expect(Set(t.index.containing(latitude: lat, longitude: 180)) == Set(t.index.containing(latitude: lat, longitude: -180)))
            t.checkContaining(lat, 180)
        }
        for _ in 0..<100 {
            t.checkNearest(Double.random(in: -80...80, using: &rng), [180, -180, 179.999][Int.random(in: 0..<3, using: &rng)], limit: 20)
        }
    }

    @Test("dense clusters and many zones on one spot")
    func denseCluster() {
        var rng = SeededGenerator(seed: 4)
        var t = IndexUnderTest()
        for key in 0..<UInt32(4_000) {
            if key < 500 {
                t.upsert(key, 48.8566, 2.3522, Double.random(in: 20...400, using: &rng))
            } else {
                let p = rng.offset(48.8566, 2.3522, by: Double.random(in: 0...3_000, using: &rng))
                t.upsert(key, p.latitude, p.longitude, Double.random(in: 20...300, using: &rng))
            }
        }
        for _ in 0..<500 {
            let p = rng.offset(48.8566, 2.3522, by: Double.random(in: 0...3_500, using: &rng))
            t.checkContaining(p.latitude, p.longitude)
            t.checkNearest(p.latitude, p.longitude, limit: 20)
        }
        t.checkNearest(48.8566, 2.3522, limit: 600)
    }

    @Test("upsert moves and resizes, remove deletes")
    func updates() {
        var rng = SeededGenerator(seed: 5)
        var t = IndexUnderTest()
        // A small region across the antimeridian, so moves and queries interact.
        func regional(_ rng: inout SeededGenerator) -> (Double, Double) {
            let lon = Double.random(in: 179...181, using: &rng)
            return (Double.random(in: 59...61, using: &rng), lon > 180 ? lon - 360 : lon)
        }
        for step in 0..<6_000 {
            let key = UInt32.random(in: 0..<1_500, using: &rng)
            if step % 5 == 4 {
                t.remove(key)
            } else {
                let (lat, lon) = regional(&rng)
                t.upsert(key, lat, lon, exp(Double.random(in: log(20.0)...log(30_000.0), using: &rng)))
            }
            if step % 10 == 0 {
                let (lat, lon) = regional(&rng)
                t.checkContaining(lat, lon)
            }
        }
        #expect(t.index.count == t.reference.count)
        let key = t.reference.keys.first!
        t.upsert(key, -45, 170, 1_000)
        t.checkContaining(-45, 170)
        #expect(t.index.containing(latitude: -45, longitude: 170).contains(key))
        t.upsert(key, -45, 170, 10)
        #expect(!t.index.containing(latitude: -45.0001, longitude: 170).contains(key))
        for key in t.reference.keys { t.remove(key) }
        #expect(t.index.count == 0)
        #expect(t.index.containing(latitude: 60, longitude: 180).isEmpty)
        #expect(t.index.nearest(latitude: 60, longitude: 180, limit: 20).isEmpty)
    }

    @Test("margins widen every zone, beyond the slack too")
    func margins() {
        var rng = SeededGenerator(seed: 6)
        var t = IndexUnderTest()
        for key in 0..<UInt32(3_000) {
            let p = rng.offset(-33.87, 151.21, by: Double.random(in: 0...30_000, using: &rng))
            t.upsert(key, p.latitude, p.longitude, exp(Double.random(in: log(20.0)...log(2_000.0), using: &rng)))
        }
        for margin in [0.0, 5, 25, 32, 33, 100, 1_000, 20_000] {
            for _ in 0..<80 {
                let p = rng.offset(-33.87, 151.21, by: Double.random(in: 0...32_000, using: &rng))
                t.checkContaining(p.latitude, p.longitude, margin: margin)
            }
        }
    }

    @Test("huge zones, the whole sphere, and zero radius")
    func extremes() {
        var t = IndexUnderTest()
        t.upsert(1, 10, 20, 100_000)
        t.upsert(2, -10, -160, 19_000_000)
        t.upsert(3, 0, 0, 25_000_000)
        t.upsert(4, 51.5, -0.12, 0)
        var rng = SeededGenerator(seed: 7)
        for _ in 0..<500 {
            let (lat, lon) = rng.position()
            #expect(t.index.containing(latitude: lat, longitude: lon).contains(3))
            t.checkContaining(lat, lon)
        }
        #expect(t.index.containing(latitude: 51.5, longitude: -0.12).contains(4))
        t.checkNearest(0, 0, limit: 3)
        #expect(t.index.containing(latitude: .nan, longitude: 0).isEmpty)
    }

    @Test("nearest-k equals the brute force, with and without a distance limit")
    func nearest() {
        var rng = SeededGenerator(seed: 8)
        var t = IndexUnderTest()
        for key in 0..<UInt32(20_000) {
            // Half spread worldwide, half in a few cities.
            if key % 2 == 0 {
                let (lat, lon) = rng.position()
                t.upsert(key, lat, lon, rng.radius())
            } else {
                let city = [(40.71, -74.0), (35.68, 139.69), (-64.8, -179.9), (78.2, 15.6)][Int(key / 2 % 4)]
                let p = rng.offset(city.0, city.1, by: Double.random(in: 0...20_000, using: &rng))
                t.upsert(key, p.latitude, p.longitude, 200)
            }
        }
        for i in 0..<300 {
            let (lat, lon) = i % 3 == 0 ? (40.72, -74.01) : rng.position()
            let limit = [1, 5, 20, 20][i % 4]
            t.checkNearest(lat, lon, limit: limit)
            t.checkNearest(lat, lon, limit: limit, within: exp(Double.random(in: log(100.0)...log(2_000_000.0), using: &rng)))
        }
        #expect(t.index.nearest(latitude: 0, longitude: 0, limit: 0).isEmpty)
    }
}
