import Foundation
import GRDB
import GuardianShared
import MQTT

extension CommandRouterService: PrivacyParticipant {
    public var retainedKinds: [RetentionPolicy.Kind] { Self.retainedKinds }

    public func erase(deviceId: String, in db: Database) throws -> [String: Int] {
        try store.erase(deviceId: deviceId, in: db)
    }

    public func export(deviceId: String, in db: Database) throws -> [String: JSONObject] {
        try store.export(deviceId: deviceId, in: db)
    }

    /// The child's latest command, policy and status.
    public func retainedTopics(about deviceId: String, in db: Database) throws -> [String] {
        let topics = runtime.topics
        return [topics.childCommand(deviceId), topics.childPolicy(deviceId), topics.childStatus(deviceId)]
    }

    /// Forgets the child in memory and, from the shard that owns it, takes it out of every family
    /// that lists it (republished retained), so no family names an erased device; a family left
    /// with no child is cleared.
    public func erased(deviceId: String) {
        let families = state.withLock { s -> [(String, Family)] in
            s.children[deviceId] = nil
            s.household.forget(deviceId)
            // A policy refresh may have stored the child again between the erase and now.
            try? store.forgetChild(deviceId)
            return s.household.families.families.filter { $0.value.children.contains { $0.deviceId == deviceId } }.map { ($0.key, $0.value) }
        }
        guard handoff.owns(deviceId) else { return }
        for (familyId, var family) in families {
            family.children.removeAll { $0.deviceId == deviceId }
            let payload = family.children.isEmpty ? Data() : GuardianJSON.encode(family)
            runtime.client.publish(MQTTOutgoing(topic: runtime.topics.family(familyId), payload: payload, retain: true)) { _ in }
        }
    }

    public func prune(olderThan cutoffs: [String: Timestamp], now: Timestamp, in db: Database) throws -> [String: Int] {
        try db.prune(cutoffs, ["usage": ("usage", "ts"), "handledCommands": ("handled", "at")])
    }
}
