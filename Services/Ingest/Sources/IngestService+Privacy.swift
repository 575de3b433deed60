import Foundation
import GRDB
import GuardianShared

extension IngestService: PrivacyParticipant {
    public var retainedKinds: [RetentionPolicy.Kind] { Self.retainedKinds }

    public func erase(deviceId: String, in db: Database) throws -> [String: Int] {
        ["events": try pipeline.store.erase(deviceId: deviceId, in: db)]
    }

    public func export(deviceId: String, in db: Database) throws -> [String: JSONObject] {
        ["events": .array(try pipeline.store.events(deviceId: deviceId, in: db).map(JSONObject.init(payload:)))]
    }

    /// The device's retained profile, as it published it and as ingest republished it.
    public func retainedTopics(about deviceId: String, in db: Database) throws -> [String] {
        [runtime.topics.profile(deviceId), runtime.topics.event(deviceId, .profile)]
    }

    public func prune(olderThan cutoffs: [String: Timestamp], now: Timestamp, in db: Database) throws -> [String: Int] {
        guard let cutoff = cutoffs["events"] else { return [:] }
        return ["events": try pipeline.store.prune(receivedBefore: cutoff, now: now, in: db)]
    }
}
