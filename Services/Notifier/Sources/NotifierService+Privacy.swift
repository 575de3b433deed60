import Foundation
import GRDB
import GuardianShared

extension NotifierService: PrivacyParticipant {
    public var retainedKinds: [RetentionPolicy.Kind] { Self.retainedKinds }

    public func erase(deviceId: String, in db: Database) throws -> [String: Int] {
        try store.erase(deviceId: deviceId, in: db)
    }

    public func export(deviceId: String, in db: Database) throws -> [String: JSONObject] {
        try store.export(deviceId: deviceId, preferencesTopic: runtime.topics.preferences(deviceId), in: db)
    }

    /// The device's own preferences (a device is also a person who receives notifications).
    public func retainedTopics(about deviceId: String, in db: Database) throws -> [String] {
        [runtime.topics.preferences(deviceId)]
    }

    public func erased(deviceId: String) {
        state.withLock { s in
            s.ledger.forget(recipient: deviceId)
            s.household.forget(deviceId)
            s.commands.forget(deviceId)
        }
    }

    public func prune(olderThan cutoffs: [String: Timestamp], now: Timestamp, in db: Database) throws -> [String: Int] {
        try db.prune(cutoffs, ["history": ("history", "at"), "held": ("held", "release_at"), "webhookJobs": ("webhooks", "next_at")])
    }
}
