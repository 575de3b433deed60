import Foundation
import GuardianShared
import MQTT

/// Watches a sharded service's presence to tell when a move of devices between shards is over:
/// the instances follow the same shard count and have nothing left to hand off.
public final class ShardMoveWatch: Sendable {
    let presence: MessageCollector

    public init(_ client: MQTTClient, service: String) async throws {
        presence = try await MessageCollector(client, "guardian/services/\(service)/+")
    }

    /// Each instance's latest presence.
    public var latest: [String: Presence] {
        var latest: [String: Presence] = [:]
        for message in presence.all {
            guard let instance = message.topic.split(separator: "/").last else { continue }
            latest[String(instance)] = try? JSONDecoder().decode(Presence.self, from: message.payload)
        }
        return latest
    }

    /// Whether every one of `instances` is online, follows `count` shards and has handed off all
    /// it had to, and those of `ownNothing` own nothing.
    public func isSettled(count: Int, instances: [String], ownNothing: [String] = []) -> Bool {
        let latest = latest
        return instances.allSatisfy { id in
            guard let p = latest[id], p.status == .online, p.stats[ShardLayout.followsStat] == count, p.stats[ShardLayout.pendingStat] == 0
            else { return false }
            return !ownNothing.contains(id) || p.stats[ShardLayout.ownsNothingStat] == 1
        }
    }

    /// Waits (a generous ceiling, not a measure of speed) until `isSettled`; returns whether it was.
    public func waitSettled(count: Int, instances: [String], ownNothing: [String] = [], ceiling: Duration = .seconds(150)) async -> Bool {
        await eventually(ceiling) { isSettled(count: count, instances: instances, ownNothing: ownNothing) }
    }
}
