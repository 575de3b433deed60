import Foundation
import GRDB

/// What a sharded service does so that a device can move to another shard: name the devices it
/// holds state about, write one device's state as a message, and take such a message in.
/// `ShardHandoff` calls these on the network thread; forgetting a device handed off is, unless the
/// service says otherwise (`forget`, `forgotten`), the privacy erase without a tombstone.
public protocol ShardHandoffParticipant: PrivacyParticipant {
    /// Every device this instance holds state about.
    func heldDevices() throws -> [String]

    /// Whether this instance holds state about `deviceId`.
    func holdsState(of deviceId: String) throws -> Bool

    /// Everything needed to carry on serving `deviceId` where this instance left off; nil when it
    /// holds nothing about it.
    func handoffState(of deviceId: String) throws -> Data?

    /// Takes in what another instance handed off about `deviceId`, merged with anything already held:
    /// taking the same state in twice changes nothing.
    func adopt(_ state: Data, deviceId: String) throws

    /// Deletes what the store holds about `deviceId` once its new owner took it in.
    func forget(deviceId: String, in db: Database) throws

    /// After `forget` committed: drops what memory holds about `deviceId`.
    func forgotten(deviceId: String)
}

extension ShardHandoffParticipant {
    public func forget(deviceId: String, in db: Database) throws { _ = try erase(deviceId: deviceId, in: db) }

    public func forgotten(deviceId: String) { erased(deviceId: deviceId) }
}
