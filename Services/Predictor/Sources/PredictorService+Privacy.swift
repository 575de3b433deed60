import Foundation
import GRDB
import GuardianShared

extension PredictorService: PrivacyParticipant {
    public var retainedKinds: [RetentionPolicy.Kind] { Self.retainedKinds }

    public func erase(deviceId: String, in db: Database) throws -> [String: Int] {
        try store.erase(deviceId: deviceId, in: db)
    }

    public func export(deviceId: String, in db: Database) throws -> [String: JSONObject] {
        try store.export(deviceId: deviceId, in: db)
    }

    public func erased(deviceId: String) {
        context.withLock { c in
            c.budgets[deviceId] = nil
            c.timeZones[deviceId] = nil
        }
    }

    public func prune(olderThan cutoffs: [String: Timestamp], now: Timestamp, in db: Database) throws -> [String: Int] {
        guard let cutoff = cutoffs["budgets"] else { return [:] }
        context.withLock { c in c.budgets = c.budgets.filter { $0.value.ts >= cutoff } }
        return try db.prune(cutoffs, ["budgets": ("budgets", "ts")])
    }
}
