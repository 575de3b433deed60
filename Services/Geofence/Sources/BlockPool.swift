/// Growable lists of `UInt32` packed into one array: each list is a power-of-two block whose first
/// word is a header (count, size class), freed blocks are reused per size class.
struct BlockPool: Sendable {
    private(set) var words: [UInt32] = []
    private var freeBlocks: [[UInt32]] = Array(repeating: [], count: 32)
    /// Words in freed blocks, not yet reused.
    private(set) var freeWords = 0

    private static let countMask: UInt32 = (1 << 27) - 1
    private static let minSizeClass = 2

    /// Number of values in the block at `block`.
    @inline(__always)
    func count(_ block: UInt32) -> Int { Int(words[Int(block)] & Self.countMask) }

    @inline(__always)
    private func sizeClass(_ block: UInt32) -> Int { Int(words[Int(block)] >> 27) }

    /// Values of the block at `block` in a pool's word buffer (for hot read paths).
    @inline(__always)
    static func values(_ block: UInt32, in words: UnsafeBufferPointer<UInt32>) -> UnsafeBufferPointer<UInt32> {
        let start = Int(block)
        return UnsafeBufferPointer(rebasing: words[(start + 1)..<(start + 1 + Int(words[start] & countMask))])
    }

    /// The values of a block, copied.
    func values(_ block: UInt32) -> ArraySlice<UInt32> {
        let start = Int(block) + 1
        return words[start..<(start + count(block))]
    }

    /// A new block holding `values`.
    mutating func make(_ values: some Collection<UInt32>) -> UInt32 {
        var sizeClass = Self.minSizeClass
        while (1 << sizeClass) - 1 < values.count { sizeClass += 1 }
        let block = allocate(sizeClass: sizeClass)
        let start = Int(block)
        words[start] = UInt32(values.count) | UInt32(sizeClass) << 27
        var i = start + 1
        for value in values {
            words[i] = value
            i += 1
        }
        return block
    }

    /// Appends `value`; returns the block, moved if it had to grow.
    mutating func append(_ value: UInt32, to block: UInt32) -> UInt32 {
        let n = count(block)
        let sizeClass = sizeClass(block)
        if n + 1 < 1 << sizeClass {
            words[Int(block) + 1 + n] = value
            words[Int(block)] += 1
            return block
        }
        let grown = allocate(sizeClass: sizeClass + 1)
        for i in 0...n { words[Int(grown) + i] = words[Int(block) + i] }
        words[Int(grown)] = UInt32(n + 1) | UInt32(sizeClass + 1) << 27
        words[Int(grown) + 1 + n] = value
        release(block)
        return grown
    }

    /// Removes one occurrence of `value` (order not kept); returns the remaining count, or nil if absent.
    mutating func remove(_ value: UInt32, from block: UInt32) -> Int? {
        let start = Int(block) + 1
        let n = count(block)
        guard let i = words[start..<(start + n)].firstIndex(of: value) else { return nil }
        words[i] = words[start + n - 1]
        words[Int(block)] -= 1
        return n - 1
    }

    /// Replaces one occurrence of `old` by `new`; false if `old` is absent.
    mutating func replace(_ old: UInt32, by new: UInt32, in block: UInt32) -> Bool {
        let start = Int(block) + 1
        guard let i = words[start..<(start + count(block))].firstIndex(of: old) else { return false }
        words[i] = new
        return true
    }

    mutating func release(_ block: UInt32) {
        let sizeClass = sizeClass(block)
        freeBlocks[sizeClass].append(block)
        freeWords += 1 << sizeClass
    }

    private mutating func allocate(sizeClass: Int) -> UInt32 {
        if let block = freeBlocks[sizeClass].popLast() {
            freeWords -= 1 << sizeClass
            return block
        }
        let block = words.count
        precondition(block + (1 << sizeClass) <= Int(UInt32.max >> 1), "BlockPool full")
        words.append(contentsOf: repeatElement(0, count: 1 << sizeClass))
        return UInt32(block)
    }

    /// Worth compacting: mostly holes.
    var isFragmented: Bool { words.count >= 1 << 16 && freeWords * 2 > words.count }

    var memoryBytes: Int {
        words.capacity * MemoryLayout<UInt32>.stride + freeBlocks.reduce(0) { $0 + $1.capacity * MemoryLayout<UInt32>.stride }
    }
}
