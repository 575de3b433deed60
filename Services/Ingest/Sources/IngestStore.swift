import Foundation
import GRDB
import GuardianShared
import Logging

/// Ingest's own store: every accepted event (the de-duplication record) and, until the broker
/// acknowledges its republication, the outbox flag `published = 0`.
final class IngestStore: Sendable {
    let store: ServiceStore

    static let migrations: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-events") { db in
            try db.execute(
                sql: """
                    CREATE TABLE events (
                        device_id TEXT NOT NULL,
                        id TEXT NOT NULL,
                        kind TEXT NOT NULL,
                        ts INTEGER NOT NULL,
                        received_at INTEGER NOT NULL,
                        payload BLOB NOT NULL,
                        published INTEGER NOT NULL DEFAULT 0,
                        PRIMARY KEY (device_id, id)
                    );
                    CREATE INDEX events_unpublished ON events(published) WHERE published = 0;
                    CREATE INDEX events_received ON events(received_at);
                    """)
        }
        return migrator
    }()

    init(store: ServiceStore) { self.store = store }

    convenience init(config: GuardianConfig, logger: Logger) throws(StorageError) {
        self.init(store: try ServiceStore(service: "ingest", config: config, migrations: IngestStore.migrations, logger: logger))
    }

    /// Inserts events in one transaction; returns the new ones with their row ids (duplicates are skipped).
    func insert(_ events: [NormalizedEvent]) throws(StorageError) -> [(rowID: Int64, event: NormalizedEvent)] {
        try store.write { db in
            let statement = try db.cachedStatement(
                sql: "INSERT OR IGNORE INTO events (device_id, id, kind, ts, received_at, payload) VALUES (?, ?, ?, ?, ?, ?)")
            var inserted: [(Int64, NormalizedEvent)] = []
            inserted.reserveCapacity(events.count)
            for event in events {
                try statement.execute(arguments: [
                    event.deviceId, event.id, event.kind.rawValue, event.ts.milliseconds, event.receivedAt.milliseconds, event.payload,
                ])
                if db.changesCount > 0 { inserted.append((db.lastInsertedRowID, event)) }
            }
            return inserted
        }
    }

    /// Marks events as acknowledged by the broker.
    func markPublished(_ rowIDs: [Int64]) throws(StorageError) {
        guard !rowIDs.isEmpty else { return }
        try store.write { db in
            for chunk in stride(from: 0, to: rowIDs.count, by: 500).map({ rowIDs[$0..<min($0 + 500, rowIDs.count)] }) {
                let placeholders = Array(repeating: "?", count: chunk.count).joined(separator: ",")
                try db.execute(sql: "UPDATE events SET published = 1 WHERE rowid IN (\(placeholders))", arguments: StatementArguments(Array(chunk)))
            }
        }
    }

    /// Events accepted but not yet acknowledged (after a crash), in the order they were accepted.
    func unpublished() throws(StorageError) -> [(rowID: Int64, event: NormalizedEvent)] {
        try store.read { db in
            try Row.fetchAll(
                db, sql: "SELECT rowid, device_id, id, kind, ts, received_at, payload FROM events WHERE published = 0 ORDER BY rowid"
            ).compactMap { row in
                guard let kind = EventKind(rawValue: row["kind"]) else { return nil }
                return (
                    row["rowid"],
                    NormalizedEvent(
                        kind: kind, deviceId: row["device_id"], id: row["id"], ts: Timestamp(milliseconds: row["ts"]),
                        receivedAt: Timestamp(milliseconds: row["received_at"]), payload: row["payload"])
                )
            }
        }
    }

    /// Forgets published events received before `cutoff` (the de-duplication window).
    func prune(receivedBefore cutoff: Timestamp) throws(StorageError) -> Int {
        try store.write { db in
            try db.execute(sql: "DELETE FROM events WHERE published = 1 AND received_at < ?", arguments: [cutoff.milliseconds])
            return db.changesCount
        }
    }

    func count() throws(StorageError) -> Int {
        try store.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM events") ?? 0 }
    }
}
