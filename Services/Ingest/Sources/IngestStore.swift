import Foundation
import GRDB
import GuardianShared
import Logging

/// Ingest's own store: every accepted event, which is also the de-duplication record and the outbox.
///
/// Events are appended in the order they are republished. The broker acknowledges them in that
/// order, so a single watermark ("every event up to row N is acknowledged") is enough to know what
/// to republish after a crash: everything above it. Each commit touches two pages (the row and
/// the `(device_id, id)` key), which keeps the synchronous path short.
public final class IngestStore: Sendable {
    let store: ServiceStore

    static let migrations: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE events (
                        device_id TEXT NOT NULL,
                        id TEXT NOT NULL,
                        kind TEXT NOT NULL,
                        ts INTEGER NOT NULL,
                        received_at INTEGER NOT NULL,
                        payload BLOB NOT NULL,
                        PRIMARY KEY (device_id, id)
                    );
                    -- Every event with a rowid up to this one has been acknowledged by the broker.
                    CREATE TABLE acknowledged (singleton INTEGER PRIMARY KEY CHECK (singleton = 1), up_to_rowid INTEGER NOT NULL);
                    INSERT INTO acknowledged VALUES (1, 0);
                    -- The last rowid of each hour, so old events are pruned by rowid without an index on time.
                    CREATE TABLE hour_marks (received_at INTEGER PRIMARY KEY, last_rowid INTEGER NOT NULL);
                    """)
        }
        PrivacyDesk.register(in: &migrator)
        return migrator
    }()

    init(store: ServiceStore) { self.store = store }

    public convenience init(config: GuardianConfig, logger: Logger) throws(StorageError) {
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

    /// Records that every event up to `rowID` has been acknowledged.
    func markAcknowledged(upTo rowID: Int64) throws(StorageError) {
        try store.write { db in
            try db.execute(sql: "UPDATE acknowledged SET up_to_rowid = max(up_to_rowid, ?)", arguments: [rowID])
        }
    }

    /// Events accepted but not yet acknowledged (after a crash), in the order they were accepted.
    func unacknowledged() throws(StorageError) -> [(rowID: Int64, event: NormalizedEvent)] {
        try store.read { db in
            let watermark = try Int64.fetchOne(db, sql: "SELECT up_to_rowid FROM acknowledged") ?? 0
            return try Row.fetchAll(
                db, sql: "SELECT rowid, device_id, id, kind, ts, received_at, payload FROM events WHERE rowid > ? ORDER BY rowid",
                arguments: [watermark]
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

    /// Notes the last row of the current hour, then forgets acknowledged events from hours before
    /// `cutoff` (so it must run at least hourly: the retention sweep does).
    func prune(receivedBefore cutoff: Timestamp, now: Timestamp = .now()) throws(StorageError) -> Int {
        try store.write { db in try prune(receivedBefore: cutoff, now: now, in: db) }
    }

    func prune(receivedBefore cutoff: Timestamp, now: Timestamp, in db: Database) throws -> Int {
        let hour = now.milliseconds / 3_600_000 * 3_600_000
        try db.execute(
            sql: "INSERT OR REPLACE INTO hour_marks VALUES (?, (SELECT coalesce(max(rowid), 0) FROM events))", arguments: [hour])
        let watermark = try Int64.fetchOne(db, sql: "SELECT up_to_rowid FROM acknowledged") ?? 0
        guard let last = try Int64.fetchOne(db, sql: "SELECT max(last_rowid) FROM hour_marks WHERE received_at < ?", arguments: [cutoff.milliseconds])
        else { return 0 }
        let limit = min(last, watermark)
        try db.execute(sql: "DELETE FROM events WHERE rowid <= ?", arguments: [limit])
        let removed = db.changesCount
        try db.execute(sql: "DELETE FROM hour_marks WHERE received_at < ? AND last_rowid <= ?", arguments: [cutoff.milliseconds, limit])
        return removed
    }

    /// Deletes every event of the device; returns how many.
    func erase(deviceId: String, in db: Database) throws -> Int {
        try db.execute(sql: "DELETE FROM events WHERE device_id = ?", arguments: [deviceId])
        return db.changesCount
    }

    /// Every stored event of the device, as published, in `ts` order.
    func events(deviceId: String, in db: Database) throws -> [Data] {
        try Data.fetchAll(db, sql: "SELECT payload FROM events WHERE device_id = ? ORDER BY ts, rowid", arguments: [deviceId])
    }

    func count() throws(StorageError) -> Int {
        try store.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM events") ?? 0 }
    }
}
