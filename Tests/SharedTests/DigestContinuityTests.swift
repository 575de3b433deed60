import Foundation
import GRDB
@testable import GuardianShared
import Logging
import Testing

/// Digests that are persisted or on the wire stay the same across the move from the hand-written
/// SHA-256 to libcrypto: the expected values are what earlier releases wrote (computed apart from
/// this code, with Python's hashlib).
@Suite("Digest continuity")
struct DigestContinuityTests {
    @Test("a geofence event id written by an earlier release is the same id today")
    func geofenceEventId() {
        let id = GeofenceEvent.makeId(
            deviceId: "phone-alice", zoneId: "arcade", type: .enter, ts: Timestamp(milliseconds: 1_764_051_022_000), source: .server)
        #expect(id == "f9c5deb42349bb6189fc3d8e9eb26267")
    }

    @Test("a long input hashed in pieces equals the one-shot digest")
    func streaming() {
        var hasher = SHA256()
        for _ in 0..<1_000 { hasher.update(Data(repeating: UInt8(ascii: "x"), count: 1_000)) }
        hasher.update("xxx")
        #expect(Hex.encode(hasher.finalize()) == "60ac51f35e32790207b62d6a4614d523975339403a66cfc204df2c758ec28053")
    }

    @Test("a tombstone stored by an earlier release still marks its device as erased")
    func tombstoneFromEarlierRelease() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("digest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var migrator = DatabaseMigrator()
        Tombstones.register(in: &migrator)
        let store = try ServiceStore(path: dir.appendingPathComponent("t.sqlite").path, migrations: migrator, logger: Logger(label: "test"))
        // The rows an earlier release wrote: its salt, and SHA-256(salt + "tablet-sam") as hex.
        try store.write { db in
            try db.execute(sql: "INSERT INTO privacy_salt VALUES (1, ?)", arguments: [Data(0..<32)])
            try db.execute(
                sql: "INSERT INTO privacy_tombstones VALUES (?, ?, ?)",
                arguments: ["3e73fd1d3936fa9fac6b078817d876decc4f9ba6acd962624c8452faf3450791", 1_764_051_022_000, 1_864_051_022_000])
        }
        let tombstones = try Tombstones(store: store, lifetime: 3600)
        #expect(tombstones.erasedAt("tablet-sam") == Timestamp(milliseconds: 1_764_051_022_000))
        #expect(tombstones.erasedAt("phone-alice") == nil)
    }
}
