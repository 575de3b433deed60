import Foundation
import GuardianGeofence
import GuardianTimelineEvaluation

/// `ZoneIndex.containing` at 10k, 100k and 1M random zones worldwide against a brute-force
/// haversine scan of the same zones in the same run, and the index's memory per zone.
struct ZoneIndexBenchmark {
    var sizes = [10_000, 100_000, 1_000_000]
    var queries = 200_000

    func run() {
        print("== geofence zone index (queries: half uniform worldwide, half within 1.5 radii of a zone) ==")
        for size in sizes { measure(size) }
    }

    private struct Zones {
        var latitudes: [Double] = []
        var longitudes: [Double] = []
        var radii: [Double] = []
    }

    private func measure(_ size: Int) {
        var rng = SplitMix64(seed: UInt64(size))
        var zones = Zones()
        for _ in 0..<size {
            zones.latitudes.append(asin(Double.random(in: -1...1, using: &rng)) * 180 / .pi)
            zones.longitudes.append(Double.random(in: -180...180, using: &rng))
            // Mostly 50-500 m, one in ten 500 m-5 km, log-uniform.
            let (low, high) = Int.random(in: 0..<10, using: &rng) == 0 ? (500.0, 5_000.0) : (50.0, 500.0)
            zones.radii.append(exp(Double.random(in: log(low)...log(high), using: &rng)))
        }
        var fixes: [(latitude: Double, longitude: Double)] = []
        for i in 0..<queries {
            if i % 2 == 0 {
                fixes.append((asin(Double.random(in: -1...1, using: &rng)) * 180 / .pi, Double.random(in: -180...180, using: &rng)))
            } else {
                let zone = Int.random(in: 0..<size, using: &rng)
                fixes.append(Self.offset(zones.latitudes[zone], zones.longitudes[zone],
                                         by: zones.radii[zone] * Double.random(in: 0...1.5, using: &rng), using: &rng))
            }
        }

        let residentBefore = Self.residentBytes()
        let buildStart = Self.nanoseconds()
        var index = ZoneIndex()
        for i in 0..<size {
            index.upsert(key: UInt32(i), latitude: zones.latitudes[i], longitude: zones.longitudes[i], radiusMeters: zones.radii[i])
        }
        let buildSeconds = Double(Self.nanoseconds() - buildStart) / 1e9
        let residentGrowth = Self.residentBytes() - residentBefore
        let bytesPerZone = Double(max(residentGrowth, index.memoryBytes)) / Double(size)

        for fix in fixes.prefix(10_000) { _ = index.containing(latitude: fix.latitude, longitude: fix.longitude) }
        var latencies = [UInt64](repeating: 0, count: fixes.count)
        var fixesInside = 0
        for (i, fix) in fixes.enumerated() {
            let start = Self.nanoseconds()
            let found = index.containing(latitude: fix.latitude, longitude: fix.longitude)
            latencies[i] = Self.nanoseconds() - start
            if !found.isEmpty { fixesInside += 1 }
        }
        var hits = 0
        let loopStart = Self.nanoseconds()
        for fix in fixes { hits &+= index.containing(latitude: fix.latitude, longitude: fix.longitude).count }
        let lookupsPerSecond = Double(fixes.count) / (Double(Self.nanoseconds() - loopStart) / 1e9)
        latencies.sort()
        let median = Double(latencies[latencies.count / 2]) / 1000
        let p99 = Double(latencies[latencies.count * 99 / 100]) / 1000

        var nearestLatencies: [UInt64] = []
        for fix in fixes.prefix(2_000) {
            let start = Self.nanoseconds()
            _ = index.nearest(latitude: fix.latitude, longitude: fix.longitude, limit: 20)
            nearestLatencies.append(Self.nanoseconds() - start)
        }
        nearestLatencies.sort()

        // The brute force: a haversine test of every zone, as the index's tests do; its answers are checked too.
        let bruteQueries = max(10, min(fixes.count, 20_000_000_000 / size / 1_000))
        var bruteFound: [[UInt32]] = []
        let bruteStart = Self.nanoseconds()
        for fix in fixes.prefix(bruteQueries) { bruteFound.append(Self.bruteForce(zones, fix.latitude, fix.longitude)) }
        let brutePerSecond = Double(bruteQueries) / (Double(Self.nanoseconds() - bruteStart) / 1e9)
        let ratio = lookupsPerSecond / brutePerSecond
        let agreeing = zip(fixes, bruteFound).filter { fix, expected in
            Set(index.containing(latitude: fix.latitude, longitude: fix.longitude)) == Set(expected)
        }.count
        let chordScan = Self.chordScan(zones, fixes.prefix(bruteQueries * 10))
        let chordScanHits = fixes.prefix(bruteQueries * 10).reduce(0) { $0 + index.containing(latitude: $1.latitude, longitude: $1.longitude).count }

        let label = size >= 1_000_000 ? "\(size / 1_000_000)M" : "\(size / 1_000)k"
        var line = String(
            format: "geofence %@ zones: median %.2f µs, p99 %.2f µs, %@ lookups/s, brute force %@ lookups/s, ratio %.0fx, %.0f bytes/zone",
            label, median, p99, Self.rate(lookupsPerSecond), Self.rate(brutePerSecond), ratio, bytesPerZone)
        if size >= 1_000_000 {
            let met = median < 2 && ratio >= 1_000 && bytesPerZone < 200 && agreeing == bruteQueries
            line += "  goal: median < 2 µs, ratio >= 1000, < 200 B/zone  \(met ? "met" : "NOT MET")"
        }
        print(line)
        print(String(
            format: "    %.0f%% of fixes in a zone, brute force agrees on %d/%d; a tuned linear scan (unit vectors, chord test) %@ lookups/s, ratio %.0fx%@",
            Double(fixesInside) * 100 / Double(fixes.count), agreeing, bruteQueries, Self.rate(chordScan.perSecond),
            lookupsPerSecond / chordScan.perSecond, chordScan.hits == chordScanHits ? "" : " (DISAGREES)"))
        print(String(
            format: "    build %.2f s (%.2f µs/upsert); %.0f B/zone resident growth, %.0f B/zone by the index's count; nearest 20: median %.1f µs",
            buildSeconds, buildSeconds * 1e6 / Double(size), Double(residentGrowth) / Double(size), Double(index.memoryBytes) / Double(size),
            Double(nearestLatencies[nearestLatencies.count / 2]) / 1000))
    }

    private static func bruteForce(_ zones: Zones, _ latitude: Double, _ longitude: Double) -> [UInt32] {
        var found: [UInt32] = []
        for i in zones.radii.indices
        where GeoMath.distance(latitude1: latitude, longitude1: longitude, latitude2: zones.latitudes[i], longitude2: zones.longitudes[i])
            <= zones.radii[i] {
            found.append(UInt32(i))
        }
        return found
    }

    /// The fastest plain linear scan: precomputed unit vectors and squared chord radii, no trigonometry per zone.
    private static func chordScan(_ zones: Zones, _ fixes: ArraySlice<(latitude: Double, longitude: Double)>) -> (perSecond: Double, hits: Int) {
        var xs: [Double] = [], ys: [Double] = [], zs: [Double] = [], limits: [Double] = []
        for i in zones.radii.indices {
            let v = GeoMath.unitVector(latitude: zones.latitudes[i], longitude: zones.longitudes[i])
            xs.append(v.x)
            ys.append(v.y)
            zs.append(v.z)
            limits.append(GeoMath.chordSquared(forDistance: zones.radii[i]))
        }
        var hits = 0
        let start = nanoseconds()
        for fix in fixes {
            let p = GeoMath.unitVector(latitude: fix.latitude, longitude: fix.longitude)
            for i in xs.indices {
                let dx = p.x - xs[i], dy = p.y - ys[i], dz = p.z - zs[i]
                if dx * dx + dy * dy + dz * dz <= limits[i] { hits &+= 1 }
            }
        }
        return (Double(fixes.count) / (Double(nanoseconds() - start) / 1e9), hits)
    }

    private static func offset(_ latitude: Double, _ longitude: Double, by distance: Double, using rng: inout SplitMix64)
        -> (latitude: Double, longitude: Double)
    {
        let bearing = Double.random(in: 0..<(2 * .pi), using: &rng)
        let δ = distance / GeoMath.earthRadius
        let φ = latitude * .pi / 180
        let φ2 = asin(min(1, max(-1, sin(φ) * cos(δ) + cos(φ) * sin(δ) * cos(bearing))))
        let λ2 = longitude * .pi / 180 + atan2(sin(bearing) * sin(δ) * cos(φ), cos(δ) - sin(φ) * sin(φ2))
        return (φ2 * 180 / .pi, remainder(λ2 * 180 / .pi, 360))
    }

    private static func rate(_ perSecond: Double) -> String {
        perSecond >= 1e6 ? String(format: "%.1fM", perSecond / 1e6)
            : perSecond >= 1e4 ? String(format: "%.0fk", perSecond / 1e3) : String(format: "%.0f", perSecond)
    }

    private static func nanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    /// VmRSS from /proc/self/status, bytes (0 where there is no /proc).
    private static func residentBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kilobytes = Int(line.split(separator: " ")[1])
        else { return 0 }
        return kilobytes * 1024
    }
}
