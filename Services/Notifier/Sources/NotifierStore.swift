import Foundation
import GRDB
import GuardianShared
import Logging

/// The notifier's store: the retained state it routes by, the history that makes delivery
/// exactly-once in effect, notifications held for quiet hours, the webhook queue and the outbox.
final class NotifierStore: Sendable {
    let store: ServiceStore

    static let migrations: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE history (
                        recipient TEXT NOT NULL, id TEXT NOT NULL, kind TEXT NOT NULL, zone_id TEXT,
                        at INTEGER NOT NULL, delivered INTEGER NOT NULL,
                        PRIMARY KEY (recipient, id)
                    );
                    CREATE TABLE held (recipient TEXT NOT NULL, id TEXT NOT NULL, payload BLOB NOT NULL, release_at INTEGER NOT NULL,
                        PRIMARY KEY (recipient, id));
                    CREATE TABLE webhooks (seq INTEGER PRIMARY KEY AUTOINCREMENT, url TEXT NOT NULL, body BLOB NOT NULL,
                        attempts INTEGER NOT NULL DEFAULT 0, next_at INTEGER NOT NULL);
                    """)
        }
        RetainedStateCache.register(in: &migrator)
        DurableOutbox.register(in: &migrator)
        PrivacyDesk.register(in: &migrator)
        return migrator
    }()

    let retained: RetainedStateCache

    init(config: GuardianConfig, logger: Logger) throws(StorageError) {
        store = try ServiceStore(service: "notifier", config: config, migrations: NotifierStore.migrations, logger: logger)
        retained = RetainedStateCache(store: store)
    }

    /// Records a notification; false when this recipient already had it.
    func record(_ notification: UserNotification, recipient: String, zoneId: String?, delivered: Bool, at: Timestamp, in db: Database) throws -> Bool {
        try db.cachedStatement(sql: "INSERT OR IGNORE INTO history VALUES (?, ?, ?, ?, ?, ?)")
            .execute(arguments: [recipient, notification.id, notification.kind.rawValue, zoneId, at.milliseconds, delivered])
        return db.changesCount > 0
    }

    /// Nudges delivered since `since`, to warm the in-memory ledger at start.
    func recentNudges(since: Timestamp) throws(StorageError) -> [(recipient: String, zoneId: String?, at: Timestamp)] {
        try store.read { db in
            try Row.fetchAll(
                db, sql: "SELECT recipient, zone_id, at FROM history WHERE kind = 'spending_nudge' AND delivered = 1 AND at > ?",
                arguments: [since.milliseconds]
            ).map { ($0["recipient"], $0["zone_id"], Timestamp(milliseconds: $0["at"])) }
        }
    }

    func hold(_ notification: UserNotification, recipient: String, until: Timestamp, in db: Database) throws {
        try db.cachedStatement(sql: "INSERT OR IGNORE INTO held VALUES (?, ?, ?, ?)")
            .execute(arguments: [recipient, notification.id, GuardianJSON.encode(notification), until.milliseconds])
    }

    func due(now: Timestamp) throws(StorageError) -> [(recipient: String, notification: UserNotification)] {
        try store.read { db in
            try Row.fetchAll(db, sql: "SELECT recipient, payload FROM held WHERE release_at <= ? ORDER BY release_at", arguments: [now.milliseconds])
                .compactMap { row in (try? JSONDecoder().decode(UserNotification.self, from: row["payload"] as Data)).map { (row["recipient"], $0) } }
        }
    }

    func release(recipient: String, id: String, in db: Database) throws {
        try db.cachedStatement(sql: "DELETE FROM held WHERE recipient = ? AND id = ?").execute(arguments: [recipient, id])
        try db.cachedStatement(sql: "UPDATE history SET delivered = 1 WHERE recipient = ? AND id = ?").execute(arguments: [recipient, id])
    }

    func queueWebhook(url: String, body: Data, at: Timestamp, in db: Database) throws {
        try db.cachedStatement(sql: "INSERT INTO webhooks (url, body, next_at) VALUES (?, ?, ?)")
            .execute(arguments: [url, body, at.milliseconds])
    }

    // MARK: Privacy

    /// The device's notifications (sent to it, or about it to its parents), held ones, webhook jobs
    /// that mention it, and its cached preferences and profile.
    func erase(deviceId: String, in db: Database) throws -> [String: Int] {
        let quoted = "\"\(deviceId)\""
        try db.execute(
            sql: "DELETE FROM history WHERE recipient = ?1 OR id LIKE 'status-' || ?1 || '-%' OR id LIKE 'ack-' || ?1 || '-%'", arguments: [deviceId])
        let history = db.changesCount
        try db.execute(sql: "DELETE FROM held WHERE recipient = ? OR instr(CAST(payload AS TEXT), ?) > 0", arguments: [deviceId, quoted])
        let held = db.changesCount
        try db.execute(sql: "DELETE FROM webhooks WHERE instr(CAST(body AS TEXT), ?) > 0", arguments: [quoted])
        let webhooks = db.changesCount
        try db.execute(
            sql: "DELETE FROM retained_state WHERE instr(topic || '/', '/' || ? || '/') > 0 AND topic NOT LIKE '%/families/%'", arguments: [deviceId])
        return ["notifications": history, "held": held, "webhookJobs": webhooks, "preferences": db.changesCount]
    }

    func export(deviceId: String, preferencesTopic: String, in db: Database) throws -> [String: JSONObject] {
        let quoted = "\"\(deviceId)\""
        let history = try Row.fetchAll(
            db, sql: "SELECT recipient, id, kind, zone_id, at, delivered FROM history WHERE recipient = ?1 OR id LIKE 'status-' || ?1 || '-%' OR id LIKE 'ack-' || ?1 || '-%' ORDER BY at",
            arguments: [deviceId]
        ).map { row -> JSONObject in
            var item: [String: JSONObject] = [
                "recipient": .string(row["recipient"]), "id": .string(row["id"]), "kind": .string(row["kind"]),
                "ts": .string(Timestamp(milliseconds: row["at"]).rfc3339), "delivered": .bool(row["delivered"]),
            ]
            if let zone: String = row["zone_id"] { item["zoneId"] = .string(zone) }
            return .object(item)
        }
        let held = try Row.fetchAll(
            db, sql: "SELECT recipient, payload, release_at FROM held WHERE recipient = ? OR instr(CAST(payload AS TEXT), ?) > 0 ORDER BY release_at",
            arguments: [deviceId, quoted]
        ).map { row -> JSONObject in
            .object([
                "recipient": .string(row["recipient"]), "notification": JSONObject(payload: row["payload"]),
                "releaseAt": .string(Timestamp(milliseconds: row["release_at"]).rfc3339),
            ])
        }
        let webhooks = try Data.fetchAll(db, sql: "SELECT body FROM webhooks WHERE instr(CAST(body AS TEXT), ?) > 0 ORDER BY seq", arguments: [quoted])
            .map(JSONObject.init(payload:))
        var data: [String: JSONObject] = ["notifications": .array(history), "held": .array(held), "webhookJobs": .array(webhooks)]
        if let preferences = try Data.fetchOne(db, sql: "SELECT payload FROM retained_state WHERE topic = ?", arguments: [preferencesTopic]) {
            data["preferences"] = JSONObject(payload: preferences)
        }
        return data
    }
}
