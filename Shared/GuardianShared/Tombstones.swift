import Foundation
import GRDB
import Synchronization

/// The erased devices of one store and when each was erased, kept as long as a broker queue may
/// still hold messages from before (the session expiry). Stored as salted SHA-256 digests, so the
/// store keeps no trace of the id itself; checked in memory on every message about a device.
final class Tombstones: Sendable {
    private struct State {
        var byDigest: [String: Timestamp] = [:]
        /// Ids already looked up (hashing costs a microsecond): when they were erased, or nil.
        var looked: [String: Timestamp?] = [:]
    }

    let lifetime: Double
    private let salt: Data
    private let state = Mutex(State())

    static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("privacy-v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE privacy_salt (singleton INTEGER PRIMARY KEY CHECK (singleton = 1), salt BLOB NOT NULL);
                    CREATE TABLE privacy_tombstones (digest TEXT PRIMARY KEY, erased_at INTEGER NOT NULL, expires_at INTEGER NOT NULL);
                    """)
        }
    }

    init(store: ServiceStore, lifetime: Double) throws(StorageError) {
        self.lifetime = lifetime
        let (salt, rows) = try store.write { db in
            if try Data.fetchOne(db, sql: "SELECT salt FROM privacy_salt") == nil {
                var random = SystemRandomNumberGenerator()
                let bytes = Data((0..<32).map { _ in UInt8.random(in: 0...255, using: &random) })
                try db.execute(sql: "INSERT INTO privacy_salt VALUES (1, ?)", arguments: [bytes])
            }
            let salt = try Data.fetchOne(db, sql: "SELECT salt FROM privacy_salt") ?? Data()
            let rows = try Row.fetchAll(db, sql: "SELECT digest, erased_at FROM privacy_tombstones").map {
                ($0["digest"] as String, Timestamp(milliseconds: $0["erased_at"]))
            }
            return (salt, rows)
        }
        self.salt = salt
        state.withLock { $0.byDigest = Dictionary(rows, uniquingKeysWith: max) }
    }

    private func digest(_ deviceId: String) -> String {
        var hasher = SHA256()
        hasher.update(salt)
        hasher.update(deviceId)
        return Hex.encode(hasher.finalize())
    }

    /// When `deviceId` was erased, if a tombstone for it is still kept.
    func erasedAt(_ deviceId: String) -> Timestamp? {
        state.withLock { s in
            guard !s.byDigest.isEmpty else { return nil }
            if let known = s.looked[deviceId] { return known }
            if s.looked.count > 100_000 { s.looked.removeAll(keepingCapacity: true) }
            let at = s.byDigest[digest(deviceId)]
            s.looked[deviceId] = at
            return at
        }
    }

    func add(_ deviceId: String, at: Timestamp, in db: Database) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO privacy_tombstones VALUES (?, ?, ?)",
            arguments: [digest(deviceId), at.milliseconds, at.adding(seconds: lifetime).milliseconds])
    }

    /// After the tombstone's transaction committed.
    func remember(_ deviceId: String, at: Timestamp) {
        let key = digest(deviceId)
        state.withLock { s in
            s.byDigest[key] = at
            s.looked.removeAll(keepingCapacity: true)
        }
    }

    /// Drops tombstones past their lifetime; returns how many.
    func expire(now: Timestamp, in db: Database) throws -> Int {
        let expired = try String.fetchAll(db, sql: "SELECT digest FROM privacy_tombstones WHERE expires_at < ?", arguments: [now.milliseconds])
        guard !expired.isEmpty else { return 0 }
        try db.execute(sql: "DELETE FROM privacy_tombstones WHERE expires_at < ?", arguments: [now.milliseconds])
        state.withLock { s in
            for key in expired { s.byDigest[key] = nil }
            s.looked.removeAll(keepingCapacity: true)
        }
        return expired.count
    }
}
