import DequeModule

/// Republished events awaiting the broker's acknowledgement, in the order they were sent.
///
/// The watermark is the highest row id below which everything is acknowledged; acknowledgements
/// normally arrive in order, and one that arrives early waits until those before it come in.
struct Outbox {
    private var inFlight: Deque<Int64> = []
    private var acknowledgedEarly: Set<Int64> = []
    private var watermark: Int64?
    private var advancedSinceFlush = 0

    mutating func sent(_ rowID: Int64) { inFlight.append(rowID) }

    mutating func acknowledged(_ rowID: Int64) {
        acknowledgedEarly.insert(rowID)
        while let first = inFlight.first, acknowledgedEarly.remove(first) != nil {
            inFlight.removeFirst()
            watermark = first
            advancedSinceFlush += 1
        }
    }

    /// The watermark and how many events it covers since the last call.
    mutating func takeProgress() -> (Int64?, Int) {
        defer { advancedSinceFlush = 0 }
        return (watermark, advancedSinceFlush)
    }

    mutating func restore(_ advanced: Int) { advancedSinceFlush += advanced }

    var pending: Int { inFlight.count }
}
