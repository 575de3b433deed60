import Foundation
import GRDB

/// The last retained messages a service routes by (families, preferences, profiles), kept in its
/// store so that after a restart the messages queued for its session are routed before the broker
/// sends the retained ones again.
public struct RetainedStateCache: Sendable {
    let store: ServiceStore

    public init(store: ServiceStore) { self.store = store }

    public static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("retained-state-v1") { db in
            try db.execute(sql: "CREATE TABLE retained_state (topic TEXT PRIMARY KEY, payload BLOB NOT NULL)")
        }
    }

    public func all() throws(StorageError) -> [(topic: String, payload: Data)] {
        try store.read { db in try Row.fetchAll(db, sql: "SELECT topic, payload FROM retained_state").map { ($0["topic"], $0["payload"]) } }
    }

    /// Keeps `payload` for `topic`; an empty payload forgets it. A replaced or forgotten message is
    /// also wiped from the write-ahead log at once: a family republished without an erased child must
    /// not leave the old listing on disk.
    public func save(topic: String, payload: Data) throws(StorageError) {
        let replaced = try store.write { db -> Bool in
            let previous = try Data.fetchOne(db, sql: "SELECT payload FROM retained_state WHERE topic = ?", arguments: [topic])
            guard previous != payload, previous != nil || !payload.isEmpty else { return false }
            if payload.isEmpty {
                try db.execute(sql: "DELETE FROM retained_state WHERE topic = ?", arguments: [topic])
            } else {
                try db.execute(sql: "INSERT OR REPLACE INTO retained_state VALUES (?, ?)", arguments: [topic, payload])
            }
            return previous != nil
        }
        if replaced { try store.truncateLog() }
    }
}
