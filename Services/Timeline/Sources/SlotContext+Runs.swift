extension SlotContext {
    /// The runs of consecutive indices below `count` that `member` holds for, each index after a
    /// run's first also one that `joins` it (the first, the index).
    static func runs(below count: Int, where member: (Int) -> Bool, joins: (Int, Int) -> Bool = { _, _ in true }) -> [ClosedRange<Int>] {
        var runs: [ClosedRange<Int>] = []
        var first = 0
        while first < count {
            guard member(first) else {
                first += 1
                continue
            }
            var last = first
            while last + 1 < count, member(last + 1), joins(first, last + 1) { last += 1 }
            runs.append(first...last)
            first = last + 1
        }
        return runs
    }
}
