import Foundation
import GRDB
import GuardianShared

extension GeofenceService: PrivacyParticipant {
    public var retainedKinds: [RetentionPolicy.Kind] { Self.retainedKinds }

    public func erase(deviceId: String, in db: Database) throws -> [String: Int] {
        try store.erase(deviceId: deviceId, in: db)
    }

    public func export(deviceId: String, in db: Database) throws -> [String: JSONObject] {
        try store.export(deviceId: deviceId, in: db)
    }

    /// A hand-off of the device to another shard not yet taken in.
    public func retainedTopics(about deviceId: String, in db: Database) throws -> [String] {
        [runtime.topics.handoff(Self.name, runtime.config.instanceId, deviceId)]
    }

    public func erased(deviceId: String) {
        state.withLock { _ = $0.devices.removeValue(forKey: deviceId) }
    }

    public func prune(olderThan cutoffs: [String: Timestamp], now: Timestamp, in db: Database) throws -> [String: Int] {
        guard let cutoff = cutoffs["visits"] else { return [:] }
        return ["visits": try store.prune(lastFixBefore: cutoff, in: db)]
    }
}
