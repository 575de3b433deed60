import GRDB

/// What a service does for privacy: erase and export what its store (and memory) holds about a
/// device, name the retained topics about it that it clears, and prune by age. `PrivacyDesk` calls
/// these; every `Database` passed is inside one write transaction of the service's store.
public protocol PrivacyParticipant: Sendable {
    /// The kinds of data this service keeps and how long by default (`RetentionPolicy`).
    var retainedKinds: [RetentionPolicy.Kind] { get }

    /// Deletes every row about `deviceId`; returns how many of each kind were erased.
    func erase(deviceId: String, in db: Database) throws -> [String: Int]

    /// Everything held about `deviceId`, each kind in the contract's shapes.
    func export(deviceId: String, in db: Database) throws -> [String: JSONObject]

    /// Retained topics about `deviceId` this service clears when it is erased (read before `erase`).
    func retainedTopics(about deviceId: String, in db: Database) throws -> [String]

    /// After the erase committed: drops what memory holds about `deviceId`, cancels work scheduled
    /// for it, and finishes what the erase needs outside the store.
    func erased(deviceId: String)

    /// Deletes what is older than each kind's cutoff; returns how many of each kind were pruned.
    func prune(olderThan cutoffs: [String: Timestamp], now: Timestamp, in db: Database) throws -> [String: Int]
}

extension PrivacyParticipant {
    public func retainedTopics(about deviceId: String, in db: Database) throws -> [String] { [] }
    public func erased(deviceId: String) {}
}
