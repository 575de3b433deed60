import Foundation
import GuardianShared

/// When a notification goes out: the user's threshold, muted zones, quiet hours, hourly cap and the
/// zone cool-down. Nudges are only useful at the shop, so quiet hours drop them; other non-urgent
/// notifications are held until quiet hours end; urgent (`high`) ones are never held.
struct NotificationRules: Sendable {
    enum Decision: Equatable, Sendable {
        case deliver
        case hold(until: Timestamp)
        case drop(reason: String)
    }

    /// Seconds before the same zone may nudge the same person again.
    var zoneCooldown: Double = 3600

    func nudge(
        probability: Double, defaultThreshold: Double, zoneId: String, preferences: UserPreferences?, timeZone: TimeZone, now: Timestamp,
        nudgesInLastHour: Int, lastNudgeForZone: Timestamp?
    ) -> Decision {
        let threshold = preferences?.nudgeThreshold ?? defaultThreshold
        if probability < threshold { return .drop(reason: "below threshold \(threshold)") }
        if preferences?.mutedZones?.contains(zoneId) == true { return .drop(reason: "zone muted") }
        if let quiet = preferences?.quietHours, quiet.contains(minuteOfDay: Self.minuteOfDay(now, timeZone)) { return .drop(reason: "quiet hours") }
        if let last = lastNudgeForZone, now.secondsSinceEpoch - last.secondsSinceEpoch < zoneCooldown { return .drop(reason: "zone cool-down") }
        if let cap = preferences?.maxNudgesPerHour, nudgesInLastHour >= cap { return .drop(reason: "hourly cap \(cap)") }
        return .deliver
    }

    func other(priority: UserNotification.Priority, preferences: UserPreferences?, timeZone: TimeZone, now: Timestamp) -> Decision {
        guard priority != .high, let quiet = preferences?.quietHours, quiet.contains(minuteOfDay: Self.minuteOfDay(now, timeZone)),
            let end = UserPreferences.QuietHours.minutes(quiet.end)
        else { return .deliver }
        return .hold(until: Self.next(minuteOfDay: end, after: now, timeZone))
    }

    static func minuteOfDay(_ ts: Timestamp, _ zone: TimeZone) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.hour, .minute], from: ts.date)
        return (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
    }

    /// The next local time `minuteOfDay` after `ts` (DST-aware).
    static func next(minuteOfDay: Int, after ts: Timestamp, _ zone: TimeZone) -> Timestamp {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let match = DateComponents(hour: minuteOfDay / 60, minute: minuteOfDay % 60, second: 0)
        let date = calendar.nextDate(after: ts.date, matching: match, matchingPolicy: .nextTime) ?? ts.date.addingTimeInterval(86400)
        return Timestamp(date)
    }
}
