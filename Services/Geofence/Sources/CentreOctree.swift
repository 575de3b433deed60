/// A bucket octree over the cube [-1, 1]³ holding zone slots at their centres' unit vectors, for
/// nearest-centre searches. It adapts to density: a leaf splits beyond `leafCapacity` zones and a
/// subtree folds back into a leaf when it holds `leafCapacity / 2` or fewer.
struct CentreOctree: Sendable {
    struct Node: Sendable {
        /// First of eight consecutive children, 0 for a leaf.
        var children: UInt32 = 0
        /// A leaf's pool block, `empty` when it holds nothing.
        var block: UInt32 = Node.empty
        /// Zones in the subtree.
        var count: UInt32 = 0
        static let empty = UInt32.max
    }

    static let leafCapacity = 16
    /// Below this depth cells are under a metre wide: many zones on one spot stay in one leaf.
    static let maxDepth = 24

    private(set) var nodes = [Node()]
    private var freeChildBlocks: [UInt32] = []
    private(set) var pool = BlockPool()

    @inline(__always)
    static func octant(_ p: SIMD3<Double>, _ middle: SIMD3<Double>) -> Int {
        (p.x >= middle.x ? 1 : 0) | (p.y >= middle.y ? 2 : 0) | (p.z >= middle.z ? 4 : 0)
    }

    @inline(__always)
    static func childOrigin(_ origin: SIMD3<Double>, _ half: Double, _ octant: Int) -> SIMD3<Double> {
        origin + SIMD3(octant & 1 != 0 ? half : 0, octant & 2 != 0 ? half : 0, octant & 4 != 0 ? half : 0)
    }

    /// Adds `slot` at `centre`; `centreOf` gives any zone's centre, for splitting.
    mutating func insert(_ slot: UInt32, at centre: SIMD3<Double>, centreOf: (UInt32) -> SIMD3<Double>) {
        var node = 0
        var origin = SIMD3<Double>(repeating: -1)
        var size = 2.0
        var depth = 0
        while nodes[node].children != 0 {
            nodes[node].count += 1
            size /= 2
            let octant = Self.octant(centre, origin + size)
            origin = Self.childOrigin(origin, size, octant)
            node = Int(nodes[node].children) + octant
            depth += 1
        }
        nodes[node].count += 1
        nodes[node].block = nodes[node].block == Node.empty ? pool.make([slot]) : pool.append(slot, to: nodes[node].block)
        split(node, origin: origin, size: size, depth: depth, centreOf: centreOf)
    }

    private mutating func split(_ node: Int, origin: SIMD3<Double>, size: Double, depth: Int, centreOf: (UInt32) -> SIMD3<Double>) {
        guard Int(nodes[node].count) > Self.leafCapacity, depth < Self.maxDepth else { return }
        let slots = Array(pool.values(nodes[node].block))
        pool.release(nodes[node].block)
        let children: UInt32
        if let reused = freeChildBlocks.popLast() {
            children = reused
            for i in 0..<8 { nodes[Int(children) + i] = Node() }
        } else {
            children = UInt32(nodes.count)
            nodes.append(contentsOf: repeatElement(Node(), count: 8))
        }
        nodes[node] = Node(children: children, block: Node.empty, count: nodes[node].count)
        let half = size / 2
        var parts = [[UInt32]](repeating: [], count: 8)
        for slot in slots { parts[Self.octant(centreOf(slot), origin + half)].append(slot) }
        for octant in 0..<8 where !parts[octant].isEmpty {
            let child = Int(children) + octant
            nodes[child].count = UInt32(parts[octant].count)
            nodes[child].block = pool.make(parts[octant])
            split(child, origin: Self.childOrigin(origin, half, octant), size: half, depth: depth + 1, centreOf: centreOf)
        }
    }

    /// Removes `slot`, which was inserted at `centre`; false if it is not there.
    @discardableResult
    mutating func remove(_ slot: UInt32, at centre: SIMD3<Double>) -> Bool {
        var path: [Int] = []
        var node = 0
        var origin = SIMD3<Double>(repeating: -1)
        var size = 2.0
        while nodes[node].children != 0 {
            path.append(node)
            size /= 2
            let octant = Self.octant(centre, origin + size)
            origin = Self.childOrigin(origin, size, octant)
            node = Int(nodes[node].children) + octant
        }
        guard nodes[node].block != Node.empty, let remaining = pool.remove(slot, from: nodes[node].block) else { return false }
        if remaining == 0 {
            pool.release(nodes[node].block)
            nodes[node].block = Node.empty
        }
        nodes[node].count -= 1
        for ancestor in path { nodes[ancestor].count -= 1 }
        if let top = path.first(where: { Int(nodes[$0].count) <= Self.leafCapacity / 2 }) { fold(top) }
        if pool.isFragmented { compactPool() }
        return true
    }

    /// Turns the subtree at `node` into one leaf.
    private mutating func fold(_ node: Int) {
        var slots: [UInt32] = []
        collect(node, into: &slots)
        nodes[node] = Node(children: 0, block: slots.isEmpty ? Node.empty : pool.make(slots), count: UInt32(slots.count))
    }

    private mutating func collect(_ node: Int, into slots: inout [UInt32]) {
        let children = nodes[node].children
        if children == 0 {
            if nodes[node].block != Node.empty {
                slots.append(contentsOf: pool.values(nodes[node].block))
                pool.release(nodes[node].block)
            }
        } else {
            for i in 0..<8 { collect(Int(children) + i, into: &slots) }
            freeChildBlocks.append(children)
        }
        nodes[node] = Node()
    }

    private mutating func compactPool() {
        var fresh = BlockPool()
        for i in nodes.indices where nodes[i].children == 0 && nodes[i].block != Node.empty {
            nodes[i].block = fresh.make(pool.values(nodes[i].block))
        }
        pool = fresh
    }

    var memoryBytes: Int {
        nodes.capacity * MemoryLayout<Node>.stride + freeChildBlocks.capacity * 4 + pool.memoryBytes
    }
}
