extension Collection {
    /// The first index whose element satisfies `belongs`, for a predicate false then true.
    public func partitioningIndex(where belongs: (Element) -> Bool) -> Index {
        var low = startIndex
        var count = distance(from: startIndex, to: endIndex)
        while count > 0 {
            let half = count / 2
            let mid = index(low, offsetBy: half)
            if belongs(self[mid]) {
                count = half
            } else {
                low = index(after: mid)
                count -= half + 1
            }
        }
        return low
    }
}
