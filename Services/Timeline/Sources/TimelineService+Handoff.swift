import Foundation
import GuardianShared

extension TimelineService: ShardHandoffParticipant {
    public func heldDevices() throws -> [String] { try store.deviceIds() }

    public func holdsState(of deviceId: String) throws -> Bool { try store.hasDevice(deviceId) }

    public func handoffState(of deviceId: String) throws -> Data? {
        try store.handoff(deviceId).map { GuardianJSON.encode($0) }
    }

    public func adopt(_ data: Data, deviceId: String) throws {
        try store.adopt(try JSONDecoder().decode(TimelineHandoff.self, from: data), deviceId: deviceId)
        work.withLock { _ = $0.removeValue(forKey: deviceId) }
    }
}
