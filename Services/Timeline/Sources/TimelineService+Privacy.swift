import Foundation
import GRDB
import GuardianShared
import MQTT

extension TimelineService: PrivacyParticipant {
    public var retainedKinds: [RetentionPolicy.Kind] { Self.retainedKinds }

    public func erase(deviceId: String, in db: Database) throws -> [String: Int] {
        try store.erase(deviceId: deviceId, in: db)
    }

    /// The device's raw events, its days as published, and the corrections it made.
    public func export(deviceId: String, in db: Database) throws -> [String: JSONObject] {
        let held = try store.export(deviceId: deviceId, in: db)
        let now = Timestamp.now()
        let days = DayTimeline.days(of: held.device.state, timeZone: held.device.timeZone).map {
            JSONObject(encoding: PublishedDay(deviceId: deviceId, day: $0, generatedAt: now))
        }
        return [
            "motions": .array(held.motions), "locations": .array(held.locations), "charges": .array(held.charges), "days": .array(days),
            "corrections": .array(held.corrections),
        ]
    }

    /// Every day of the device's timeline that was published, and a hand-off of the device to
    /// another shard not yet taken in.
    public func retainedTopics(about deviceId: String, in db: Database) throws -> [String] {
        let device = try store.device(deviceId, in: db)
        return DayTimeline.days(of: device.state, timeZone: device.timeZone).map { runtime.topics.timelineDay(deviceId, $0.date) }
            + [runtime.topics.handoff(Self.name, runtime.config.instanceId, deviceId)]
    }

    public func erased(deviceId: String) {
        pendingRetrains.withLock { $0.removeValue(forKey: deviceId)?.cancel() }
        work.withLock { _ = $0.removeValue(forKey: deviceId) }
    }

    /// Also clears the retained days that no longer have a slot.
    public func prune(olderThan cutoffs: [String: Timestamp], now: Timestamp, in db: Database) throws -> [String: Int] {
        var expired: [(deviceId: String, date: String)] = []
        let pruned = try store.prune(
            events: cutoffs["events"], corrections: cutoffs["corrections"], timelines: cutoffs["timelines"], expiredDays: &expired, in: db)
        for (deviceId, date) in expired {
            runtime.client.publish(MQTTOutgoing(topic: runtime.topics.timelineDay(deviceId, date), payload: Data(), retain: true)) { _ in }
        }
        return pruned
    }
}
