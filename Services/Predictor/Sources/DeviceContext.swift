import Foundation
import GuardianShared

/// What the predictor knows about devices and zones, kept from plain subscriptions so every replica has it.
struct DeviceContext: Sendable {
    var budgets: [String: (utilization: Double, ts: Timestamp)] = [:]
    var timeZones: [String: TimeZone] = [:]
    var regretRates: [String: Double] = [:]

    /// The budget utilization assumed when a device never sent one.
    static let defaultBudgetUtilization = 0.75
    /// The regret rate assumed for a zone that gives none.
    static let defaultRegretRate = 0.5

    /// The six features for a geofence event, and which of them fell back to a default.
    func features(for event: GeofenceEvent) -> (PurchaseFeatures, [String]) {
        var defaulted: [String] = []
        let zone = TimeZone(identifier: "UTC")!
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZones[event.deviceId] ?? zone
        let parts = calendar.dateComponents([.hour, .weekday], from: event.ts.date)
        let budget: Double
        if let known = budgets[event.deviceId] {
            budget = known.utilization
        } else {
            budget = Self.defaultBudgetUtilization
            defaulted.append("budgetUtilization")
        }
        let regret: Double
        if let rate = regretRates[event.zoneId] {
            regret = rate
        } else {
            regret = Self.defaultRegretRate
            defaulted.append("merchantRegretRate")
        }
        let features = PurchaseFeatures(
            distanceToMerchant: max(0, event.distance) / 1000, hourOfDay: Double(parts.hour ?? 0),
            isWeekend: parts.weekday == 1 || parts.weekday == 7 ? 1 : 0, budgetUtilization: min(1, max(0, budget)),
            merchantRegretRate: min(1, max(0, regret)), dwellTime: max(0, event.dwellSeconds) / 60)
        return (features, defaulted)
    }
}
