import GuardianShared

/// Recent nudges per recipient, in memory, for the hourly cap and the zone cool-down: kept
/// in step with the history table and rebuilt from it at start.
struct NudgeLedger: Sendable {
    private var times: [String: [Timestamp]] = [:]
    private var lastByZone: [String: [String: Timestamp]] = [:]
    let window: Double

    init(window: Double) { self.window = window }

    mutating func record(recipient: String, zoneId: String?, at: Timestamp) {
        times[recipient, default: []].append(at)
        if let zoneId { lastByZone[recipient, default: [:]][zoneId] = max(at, lastByZone[recipient]?[zoneId] ?? at) }
    }

    /// Nudges in the hour before `now`, and the last one for `zoneId`; forgets what is older than the window.
    mutating func history(recipient: String, zoneId: String, now: Timestamp) -> (lastHour: Int, lastForZone: Timestamp?) {
        let horizon = now.adding(seconds: -window)
        times[recipient]?.removeAll { $0 <= horizon }
        lastByZone[recipient] = lastByZone[recipient]?.filter { $0.value > horizon }
        let hourAgo = now.adding(seconds: -3600)
        return (times[recipient]?.filter { $0 > hourAgo }.count ?? 0, lastByZone[recipient]?[zoneId])
    }
}
