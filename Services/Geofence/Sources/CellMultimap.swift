/// A hash multimap from 32-bit cell keys to zone slots: open addressing with linear probing and
/// backward-shift deletion, 8 bytes a slot. A cell holding one zone keeps it in the slot itself;
/// more go to a `BlockPool` list.
///
/// Keys are hashes of cell coordinates, so two cells may share a key: their lists then merge,
/// which only adds candidates that the exact distance test rejects.
struct CellMultimap: Sendable {
    /// `key << 32 | reference`, 0 when empty. A reference with `listFlag` set is a pool block.
    private(set) var slots = [UInt64](repeating: 0, count: 16)
    private(set) var occupied = 0
    private(set) var pool = BlockPool()

    static let listFlag: UInt32 = 1 << 31
    private static let maxLoadPercent = 60

    /// A key for cell coordinates: never 0.
    @inline(__always)
    static func key(_ a: UInt64) -> UInt32 {
        var h = a &* 0x9E37_79B9_7F4A_7C15
        h ^= h >> 29
        h = h &* 0xBF58_476D_1CE4_E5B9
        h ^= h >> 32
        let key = UInt32(truncatingIfNeeded: h)
        return key == 0 ? 1 : key
    }

    /// The slot holding `key`, if any, in a slot buffer of power-of-two size.
    @inline(__always)
    static func find(_ key: UInt32, in slots: UnsafeBufferPointer<UInt64>) -> UInt32? {
        let mask = slots.count - 1
        var i = Int(key) & mask
        while true {
            let slot = slots[i]
            if UInt32(truncatingIfNeeded: slot >> 32) == key { return UInt32(truncatingIfNeeded: slot) }
            if slot == 0 { return nil }
            i = (i + 1) & mask
        }
    }

    /// Calls `body` with each value under `key`.
    @inline(__always)
    func forEach(_ key: UInt32, _ body: (UInt32) -> Void) {
        slots.withUnsafeBufferPointer { slots in
            guard let reference = Self.find(key, in: slots) else { return }
            if reference & Self.listFlag == 0 { return body(reference) }
            pool.words.withUnsafeBufferPointer { words in
                for value in BlockPool.values(reference & ~Self.listFlag, in: words) { body(value) }
            }
        }
    }

    private func index(of key: UInt32) -> Int? {
        let mask = slots.count - 1
        var i = Int(key) & mask
        while slots[i] != 0 {
            if UInt32(truncatingIfNeeded: slots[i] >> 32) == key { return i }
            i = (i + 1) & mask
        }
        return nil
    }

    mutating func insert(_ key: UInt32, _ value: UInt32) {
        if let i = index(of: key) {
            let reference = UInt32(truncatingIfNeeded: slots[i])
            let block: UInt32
            if reference & Self.listFlag == 0 {
                block = pool.make([reference, value])
            } else {
                block = pool.append(value, to: reference & ~Self.listFlag)
            }
            slots[i] = UInt64(key) << 32 | UInt64(block | Self.listFlag)
            return
        }
        if (occupied + 1) * 100 > slots.count * Self.maxLoadPercent { resize(to: slots.count * 2) }
        place(UInt64(key) << 32 | UInt64(value))
        occupied += 1
    }

    /// Removes one `value` under `key`; false if it was not there.
    @discardableResult
    mutating func remove(_ key: UInt32, _ value: UInt32) -> Bool {
        guard let i = index(of: key) else { return false }
        let reference = UInt32(truncatingIfNeeded: slots[i])
        if reference & Self.listFlag == 0 {
            guard reference == value else { return false }
            deleteSlot(at: i)
            occupied -= 1
            if slots.count > 16 && occupied * 100 < slots.count * Self.maxLoadPercent / 8 { resize(to: slots.count / 2) }
            return true
        }
        let block = reference & ~Self.listFlag
        guard let remaining = pool.remove(value, from: block) else { return false }
        if remaining == 1 {
            let last = pool.values(block).first!
            pool.release(block)
            slots[i] = UInt64(key) << 32 | UInt64(last)
        }
        if pool.isFragmented { compactPool() }
        return true
    }

    /// Replaces `old` by `new` under `key`; false if `old` was not there.
    @discardableResult
    mutating func replace(_ key: UInt32, _ old: UInt32, by new: UInt32) -> Bool {
        guard let i = index(of: key) else { return false }
        let reference = UInt32(truncatingIfNeeded: slots[i])
        if reference & Self.listFlag != 0 { return pool.replace(old, by: new, in: reference & ~Self.listFlag) }
        guard reference == old else { return false }
        slots[i] = UInt64(key) << 32 | UInt64(new)
        return true
    }

    private mutating func place(_ slot: UInt64) {
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: slot >> 32) & mask
        while slots[i] != 0 { i = (i + 1) & mask }
        slots[i] = slot
    }

    private mutating func deleteSlot(at index: Int) {
        let mask = slots.count - 1
        var hole = index
        var i = index
        while true {
            i = (i + 1) & mask
            let slot = slots[i]
            if slot == 0 { break }
            let home = Int(truncatingIfNeeded: slot >> 32) & mask
            // The entry may fill the hole unless its home lies cyclically in (hole, i].
            let stays = hole <= i ? (home > hole && home <= i) : (home > hole || home <= i)
            if !stays {
                slots[hole] = slot
                hole = i
            }
        }
        slots[hole] = 0
    }

    private mutating func resize(to capacity: Int) {
        let old = slots
        slots = [UInt64](repeating: 0, count: capacity)
        for slot in old where slot != 0 { place(slot) }
    }

    private mutating func compactPool() {
        var fresh = BlockPool()
        for i in slots.indices where slots[i] != 0 {
            let reference = UInt32(truncatingIfNeeded: slots[i])
            guard reference & Self.listFlag != 0 else { continue }
            let block = fresh.make(pool.values(reference & ~Self.listFlag))
            slots[i] = slots[i] & 0xFFFF_FFFF_0000_0000 | UInt64(block | Self.listFlag)
        }
        pool = fresh
    }

    var memoryBytes: Int { slots.capacity * MemoryLayout<UInt64>.stride + pool.memoryBytes }
}
