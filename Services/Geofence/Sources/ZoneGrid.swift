import Foundation

/// The geometry of `ZoneIndex`'s cells: uniform 3D grids over the cube [-1, 1]³ around the unit
/// sphere, one per radius class.
///
/// A zone belongs to the class of its radius plus `slackMeters`; class k holds effective radii up
/// to `baseRadius · 4^k`, and its cells are `cellsPerRadius` times that wide. A zone is listed in
/// every cell of its class that meets the bounding box of its cap widened by the slack, so the
/// one cell holding a point, per class, lists every zone that contains the point with any margin
/// up to the slack.
struct ZoneGrid: Sendable {
    static let baseRadius = 64.0
    static let cellsPerRadius = 4.0
    static let classCount = 10
    /// Bits of each cell coordinate in a cell's 64-bit code.
    private static let coordinateBits: UInt64 = 19
    /// Widening of every box, in unit-sphere lengths (about 0.6 mm), against rounding.
    private static let pad = 1e-10

    let slackMeters: Double
    /// Largest effective angular radius of each class; the last class takes everything.
    let classAngles: [Double]
    /// Cells per unit length of each class.
    let inverseEdges: [Double]

    init(slackMeters: Double) {
        self.slackMeters = slackMeters
        var angles: [Double] = []
        var inverse: [Double] = []
        for k in 0..<Self.classCount {
            let radius = Self.baseRadius * Double(1 << (2 * k))
            angles.append(k == Self.classCount - 1 ? .infinity : radius / GeoMath.earthRadius)
            inverse.append(GeoMath.earthRadius / (Self.cellsPerRadius * radius))
        }
        precondition(2 * inverse[0] < Double(1 << Self.coordinateBits))
        classAngles = angles
        inverseEdges = inverse
    }

    /// The radius class of a zone with this squared radius chord.
    func radiusClass(chordSquared: Double) -> Int {
        let angle = GeoMath.angle(forChordSquared: chordSquared) + slackMeters / GeoMath.earthRadius
        return classAngles.firstIndex { angle <= $0 }!
    }

    @inline(__always)
    static func code(_ radiusClass: Int, _ i: UInt64, _ j: UInt64, _ l: UInt64) -> UInt64 {
        UInt64(radiusClass) << (3 * coordinateBits) | i << (2 * coordinateBits) | j << coordinateBits | l
    }

    /// The key of the cell of `radiusClass` holding the point `(x, y, z)` of the unit sphere.
    @inline(__always)
    func cellKey(_ radiusClass: Int, _ x: Double, _ y: Double, _ z: Double) -> UInt32 {
        let inverse = inverseEdges[radiusClass]
        return CellMultimap.key(
            Self.code(radiusClass, UInt64((x + 1) * inverse), UInt64((y + 1) * inverse), UInt64((z + 1) * inverse)))
    }

    /// Calls `body` with the key of every cell listing the zone.
    func forEachCell(center c: SIMD3<Double>, chordSquared: Double, _ body: (UInt32) -> Void) {
        let radiusClass = radiusClass(chordSquared: chordSquared)
        let angle = GeoMath.angle(forChordSquared: chordSquared) + slackMeters / GeoMath.earthRadius
        var low = SIMD3<Double>(repeating: -1 - Self.pad)
        var high = SIMD3<Double>(repeating: 1 + Self.pad)
        if angle < .pi {
            // Per axis e: the cap's extreme values of x·e, from the centre's angle to e ± the cap's angle.
            let cosine = cos(angle)
            let sine = sin(angle)
            let perpendicular = SIMD3(
                (c.y * c.y + c.z * c.z).squareRoot(), (c.x * c.x + c.z * c.z).squareRoot(), (c.x * c.x + c.y * c.y).squareRoot())
            for axis in 0..<3 {
                let along = c[axis] * cosine
                let across = perpendicular[axis] * sine
                if c[axis] < cosine { high[axis] = along + across + Self.pad }
                if -c[axis] < cosine { low[axis] = along - across - Self.pad }
            }
        }
        let inverse = inverseEdges[radiusClass]
        let last = Double((2 * inverse).rounded(.down))
        func index(_ v: Double) -> UInt64 { UInt64(min(last, max(0, ((v + 1) * inverse).rounded(.down)))) }
        for i in index(low.x)...index(high.x) {
            for j in index(low.y)...index(high.y) {
                for l in index(low.z)...index(high.z) {
                    body(CellMultimap.key(Self.code(radiusClass, i, j, l)))
                }
            }
        }
    }

    /// Calls `body` with the key of every cell of `radiusClass` that meets both the unit sphere and
    /// the box of half-width `halfWidth` around the point `p` of the sphere.
    func forEachCell(_ radiusClass: Int, around p: SIMD3<Double>, halfWidth: Double, _ body: (UInt32) -> Void) {
        let inverse = inverseEdges[radiusClass]
        let last = Int((2 * inverse).rounded(.down))
        func index(_ v: Double) -> Int { min(last, max(0, Int(((v + 1) * inverse).rounded(.down)))) }
        func edge(_ index: Int) -> Double { Double(index) / inverse - 1 }
        // Columns run along the axis where p is largest, so each meets the sphere in a cell or two.
        let along = abs(p.x) >= abs(p.y) && abs(p.x) >= abs(p.z) ? 0 : abs(p.y) >= abs(p.z) ? 1 : 2
        let (u, v) = ((along + 1) % 3, (along + 2) % 3)
        let low = p - halfWidth - Self.pad
        let high = p + halfWidth + Self.pad
        func nearest(_ a: Double, _ b: Double) -> Double { a > 0 ? a * a : b < 0 ? b * b : 0 }
        func farthest(_ a: Double, _ b: Double) -> Double { max(a * a, b * b) }
        var cell = [0, 0, 0]
        for iu in index(low[u])...index(high[u]) {
            let (u0, u1) = (edge(iu), edge(iu + 1))
            for iv in index(low[v])...index(high[v]) {
                let (v0, v1) = (edge(iv), edge(iv + 1))
                let inner = nearest(u0, u1) + nearest(v0, v1)
                guard inner <= 1 + Self.pad else { continue }
                let top = max(0, 1 - inner).squareRoot() + Self.pad
                let bottom = max(0, 1 - farthest(u0, u1) - farthest(v0, v1)).squareRoot() - Self.pad
                // The sphere crosses the column where |along| is in [bottom, top], on both sides.
                cell[u] = iu
                cell[v] = iv
                let first = index(low[along])
                let final = index(high[along])
                func visit(_ start: Int, _ end: Int) {
                    guard max(start, first) <= min(end, final) else { return }
                    for ia in max(start, first)...min(end, final) {
                        cell[along] = ia
                        body(CellMultimap.key(Self.code(radiusClass, UInt64(cell[0]), UInt64(cell[1]), UInt64(cell[2]))))
                    }
                }
                let negative = (index(-top), index(-bottom))
                let positive = (index(bottom), index(top))
                if negative.1 >= positive.0 {
                    visit(negative.0, positive.1)
                } else {
                    visit(negative.0, negative.1)
                    visit(positive.0, positive.1)
                }
            }
        }
    }
}
