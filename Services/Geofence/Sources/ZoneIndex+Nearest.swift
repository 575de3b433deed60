extension ZoneIndex {
    /// Up to `limit` zones whose centres are nearest the point and at most `maxDistance` metres from
    /// it, nearest first (equal distances by key), with the great-circle distance to each centre.
    public func nearest(
        latitude: Double, longitude: Double, limit: Int, within maxDistance: Double = .infinity
    ) -> [(key: UInt32, distance: Double)] {
        guard limit > 0, latitude.isFinite, longitude.isFinite, maxDistance >= 0, count > 0 else { return [] }
        let p = GeoMath.unitVector(latitude: min(90, max(-90, latitude)), longitude: longitude)
        var best = BoundedMaxHeap(limit: limit, bound: GeoMath.chordSquared(forDistance: maxDistance))
        let nodes = centres.nodes
        var stack: [(node: Int, origin: SIMD3<Double>, size: Double, distanceSquared: Double)] = [(0, SIMD3(repeating: -1), 2, 0)]
        centres.pool.words.withUnsafeBufferPointer { words in
            zones.withUnsafeBufferPointer { zones in
                while let (node, origin, size, distanceSquared) = stack.popLast() {
                    guard best.admits(distanceSquared) else { continue }
                    let children = Int(nodes[node].children)
                    if children == 0 {
                        guard nodes[node].block != CentreOctree.Node.empty else { continue }
                        for slot in BlockPool.values(nodes[node].block, in: words) {
                            let d = p - zones[Int(slot)].centre
                            best.offer((d * d).sum(), key: keys[Int(slot)], slot: slot)
                        }
                        continue
                    }
                    let half = size / 2
                    let first = stack.count
                    for octant in 0..<8 where nodes[children + octant].count > 0 {
                        let childOrigin = CentreOctree.childOrigin(origin, half, octant)
                        let distanceSquared = Self.boxDistanceSquared(p, childOrigin, half)
                        if best.admits(distanceSquared) { stack.append((children + octant, childOrigin, half, distanceSquared)) }
                    }
                    // Nearest child on top.
                    stack[first...].sort { $0.distanceSquared > $1.distanceSquared }
                }
            }
        }
        return best.sorted().map { (key: $0.key, distance: GeoMath.distance(p, zones[Int($0.slot)].centre)) }
    }

    /// Squared distance from `p` to the cube at `origin` with edge `size`.
    @inline(__always)
    static func boxDistanceSquared(_ p: SIMD3<Double>, _ origin: SIMD3<Double>, _ size: Double) -> Double {
        let below = origin - p
        let above = p - (origin + size)
        let gap = below.replacing(with: 0, where: below .< 0) + above.replacing(with: 0, where: above .< 0)
        return (gap * gap).sum()
    }
}

/// The `limit` smallest candidates by (squared chord, key) seen so far, at most `bound`.
struct BoundedMaxHeap {
    struct Candidate {
        var distanceSquared: Double
        var key: UInt32
        var slot: UInt32

        func precedes(_ other: Candidate) -> Bool {
            distanceSquared < other.distanceSquared || (distanceSquared == other.distanceSquared && key < other.key)
        }
    }

    let limit: Int
    let bound: Double
    private var heap: [Candidate] = []

    init(limit: Int, bound: Double) {
        self.limit = limit
        self.bound = bound
        heap.reserveCapacity(min(limit, 64))
    }

    /// Whether something at this squared distance could still enter.
    @inline(__always)
    func admits(_ distanceSquared: Double) -> Bool {
        distanceSquared <= bound && (heap.count < limit || distanceSquared <= heap[0].distanceSquared)
    }

    mutating func offer(_ distanceSquared: Double, key: UInt32, slot: UInt32) {
        guard distanceSquared <= bound else { return }
        let candidate = Candidate(distanceSquared: distanceSquared, key: key, slot: slot)
        if heap.count < limit {
            heap.append(candidate)
            var i = heap.count - 1
            while i > 0, heap[(i - 1) / 2].precedes(heap[i]) {
                heap.swapAt(i, (i - 1) / 2)
                i = (i - 1) / 2
            }
        } else if candidate.precedes(heap[0]) {
            heap[0] = candidate
            var i = 0
            while true {
                var largest = i
                let left = 2 * i + 1
                if left < heap.count && heap[largest].precedes(heap[left]) { largest = left }
                if left + 1 < heap.count && heap[largest].precedes(heap[left + 1]) { largest = left + 1 }
                if largest == i { break }
                heap.swapAt(i, largest)
                i = largest
            }
        }
    }

    func sorted() -> [Candidate] { heap.sorted { $0.precedes($1) } }
}
