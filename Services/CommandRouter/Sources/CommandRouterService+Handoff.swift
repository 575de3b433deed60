import Foundation
import GRDB
import GuardianShared

extension CommandRouterService: ShardHandoffParticipant {
    public func heldDevices() throws -> [String] {
        let inMemory = state.withLock { Set($0.children.keys) }
        return Array(inMemory.union(try store.childIds()))
    }

    public func holdsState(of deviceId: String) throws -> Bool {
        try state.withLock { $0.children[deviceId] != nil } || store.holds(deviceId)
    }

    /// Read under the state lock, so that a command being applied is either in it or not yet applied.
    public func handoffState(of deviceId: String) throws -> Data? {
        try state.withLock { s in try store.handoff(deviceId, child: s.children[deviceId]) }.map { GuardianJSON.encode($0) }
    }

    /// Keeps the rules of whichever side published the later policy version; usage and handled
    /// commands are the union of both.
    public func adopt(_ data: Data, deviceId: String) throws {
        let handoff = try JSONDecoder().decode(RouterHandoff.self, from: data)
        try state.withLock { s in
            var child = s.children[deviceId]
            if let rules = handoff.rules, let version = handoff.policyVersion, version >= child?.version ?? 0 {
                child = RouterStore.Child(rules: rules, version: version, published: handoff.published)
            }
            try store.adopt(handoff, child: child, deviceId: deviceId)
            s.children[deviceId] = child
        }
    }

    /// Forgets the child's rules, usage and handled commands; unlike the privacy erase, the child
    /// stays in its families and its retained command and policy stay published.
    public func forget(deviceId: String, in db: Database) throws {
        try store.forget(deviceId: deviceId, in: db)
    }

    public func forgotten(deviceId: String) {
        state.withLock { _ = $0.children.removeValue(forKey: deviceId) }
    }
}
