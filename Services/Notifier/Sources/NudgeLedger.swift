import GuardianShared

/// Recent nudges per recipient, in memory, for the hourly cap and the zone cool-down: kept
/// in step with the history table and rebuilt from it at start.
struct NudgeLedger: Sendable {
    private var recipients: [String: RecentNudges] = [:]
    let window: Double

    init(window: Double) { self.window = window }

    mutating func record(recipient: String, zoneId: String?, at: Timestamp) {
        recipients[recipient, default: RecentNudges()].record(zoneId: zoneId, at: at)
    }

    mutating func forget(recipient: String) { recipients[recipient] = nil }

    /// Nudges in the hour before `now`, and the last one for `zoneId` within the window; forgets what
    /// is older than the window.
    mutating func history(recipient: String, zoneId: String, now: Timestamp) -> (lastHour: Int, lastForZone: Timestamp?) {
        let result = recipients[recipient]?.history(zoneId: zoneId, now: now, window: window) ?? (0, nil)
        if recipients[recipient]?.isEmpty == true { recipients[recipient] = nil }
        return result
    }
}

/// One recipient's nudges within the ledger's window.
private struct RecentNudges {
    var times: [Timestamp] = []
    var lastByZone: [String: Timestamp] = [:]
    /// Zones left by the last sweep of expired ones: the next sweep waits until there are twice as
    /// many, so a lookup costs the same however many zones there are.
    var zonesAfterSweep = 0

    var isEmpty: Bool { times.isEmpty && lastByZone.isEmpty }

    mutating func record(zoneId: String?, at: Timestamp) {
        times.append(at)
        if let zoneId { lastByZone[zoneId] = max(at, lastByZone[zoneId] ?? at) }
    }

    mutating func history(zoneId: String, now: Timestamp, window: Double) -> (lastHour: Int, lastForZone: Timestamp?) {
        let horizon = now.adding(seconds: -window)
        times.removeAll { $0 <= horizon }
        if lastByZone.count > max(16, 2 * zonesAfterSweep) {
            lastByZone = lastByZone.filter { $0.value > horizon }
            zonesAfterSweep = lastByZone.count
        }
        let hourAgo = now.adding(seconds: -3600)
        return (times.reduce(0) { $1 > hourAgo ? $0 + 1 : $0 }, lastByZone[zoneId].flatMap { $0 > horizon ? $0 : nil })
    }
}
