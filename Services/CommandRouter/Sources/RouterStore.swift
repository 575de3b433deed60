import Foundation
import GRDB
import GuardianShared
import Logging

/// The command-router's store: families and profiles as last seen, each child's rules and last
/// published policy, app usage for activity queries, the commands the model is asked about, and the outbox.
final class RouterStore: Sendable {
    let store: ServiceStore
    let retained: RetainedStateCache

    static let migrations: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE children (device_id TEXT PRIMARY KEY, rules BLOB NOT NULL, version INTEGER NOT NULL, published BLOB);
                    CREATE TABLE usage (device_id TEXT NOT NULL, ts INTEGER NOT NULL, app TEXT NOT NULL, category TEXT, seconds REAL NOT NULL);
                    CREATE INDEX usage_by_child ON usage(device_id, ts);
                    CREATE TABLE handled (command_id TEXT NOT NULL, parent TEXT NOT NULL, PRIMARY KEY (parent, command_id));
                    """)
        }
        RetainedStateCache.register(in: &migrator)
        DurableOutbox.register(in: &migrator)
        PrivacyDesk.register(in: &migrator)
        migrator.registerMigration("v2-handled-at") { db in
            // When each command id was handled, so the de-duplication record can be pruned by age.
            try db.execute(sql: "ALTER TABLE handled ADD COLUMN at INTEGER NOT NULL DEFAULT 0")
        }
        migrator.registerMigration("v3-handoff") { db in
            // Which child each handled command was for, and each usage event's id, so that a child's
            // state can move to another shard and a usage event seen on both sides counts once.
            try db.execute(
                sql: """
                    ALTER TABLE handled ADD COLUMN device_id TEXT;
                    CREATE INDEX handled_by_child ON handled(device_id);
                    ALTER TABLE usage ADD COLUMN event_id TEXT;
                    UPDATE usage SET event_id = 'stored-' || rowid;
                    CREATE UNIQUE INDEX usage_by_event ON usage(device_id, event_id);
                    """)
        }
        migrator.registerMigration("v4-questions-to-the-model") { db in
            // Parents' commands the model is asked about, until its answer is handled (`RouterStore+ModelQuestions`).
            try db.execute(
                sql: "CREATE TABLE model_questions (id INTEGER PRIMARY KEY AUTOINCREMENT, topic TEXT NOT NULL, payload BLOB NOT NULL, asked INTEGER NOT NULL)")
        }
        return migrator
    }()

    init(config: GuardianConfig, logger: Logger) throws(StorageError) {
        store = try ServiceStore(service: "command-router", config: config, migrations: RouterStore.migrations, logger: logger)
        retained = RetainedStateCache(store: store)
    }

    struct Child: Sendable {
        var rules: [RestrictionRule] = []
        var version = 0
        var published: [ChildPolicy.Restriction]?
    }

    func children() throws(StorageError) -> [String: Child] {
        try store.read { db in
            var all: [String: Child] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT * FROM children") {
                let rules = (try? JSONDecoder().decode([RestrictionRule].self, from: row["rules"] as Data)) ?? []
                let published = (row["published"] as Data?).flatMap { try? JSONDecoder().decode([ChildPolicy.Restriction].self, from: $0) }
                all[row["device_id"]] = Child(rules: rules, version: row["version"], published: published)
            }
            return all
        }
    }

    func save(_ child: Child, deviceId: String, in db: Database) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO children VALUES (?, ?, ?, ?)",
            arguments: [deviceId, GuardianJSON.encode(child.rules), child.version, child.published.map { GuardianJSON.encode($0) }])
    }

    /// Records a parent's command id; false when it was handled before (a redelivery).
    func firstTime(commandId: String, parent: String, deviceId: String, at: Timestamp, in db: Database) throws -> Bool {
        try db.execute(
            sql: "INSERT OR IGNORE INTO handled (command_id, parent, at, device_id) VALUES (?, ?, ?, ?)",
            arguments: [commandId, parent, at.milliseconds, deviceId])
        return db.changesCount > 0
    }

    /// Adds one usage event; one already stored (by its event id) changes nothing.
    func addUsage(deviceId: String, eventId: String, ts: Timestamp, usage: AppUsage) throws(StorageError) {
        try store.write { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO usage (device_id, ts, app, category, seconds, event_id) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [deviceId, ts.milliseconds, usage.app, usage.category?.rawValue, usage.seconds, eventId])
        }
    }

    /// Seconds per app and per category since `since`.
    func usage(deviceId: String, since: Timestamp) throws(StorageError) -> (apps: [String: Double], categories: [String: Double]) {
        try store.read { db in
            var apps: [String: Double] = [:], categories: [String: Double] = [:]
            for row in try Row.fetchAll(
                db, sql: "SELECT app, category, sum(seconds) AS total FROM usage WHERE device_id = ? AND ts >= ? GROUP BY app, category",
                arguments: [deviceId, since.milliseconds])
            {
                let total: Double = row["total"]
                apps[row["app"], default: 0] += total
                categories[(row["category"] as String?) ?? "other", default: 0] += total
            }
            return (apps, categories)
        }
    }

    // MARK: Privacy

    /// The child's rules and policy, its app usage, and its cached profile.
    func erase(deviceId: String, in db: Database) throws -> [String: Int] {
        try db.execute(sql: "DELETE FROM children WHERE device_id = ?", arguments: [deviceId])
        let rules = db.changesCount
        try db.execute(sql: "DELETE FROM usage WHERE device_id = ?", arguments: [deviceId])
        let usage = db.changesCount
        // The handled command ids stay (a redelivery is still not applied), without the child's id.
        try db.execute(sql: "UPDATE handled SET device_id = NULL WHERE device_id = ?", arguments: [deviceId])
        try db.execute(
            sql: "DELETE FROM retained_state WHERE instr(topic || '/', '/' || ? || '/') > 0 AND topic NOT LIKE '%/families/%'", arguments: [deviceId])
        return ["rules": rules, "usage": usage, "profiles": db.changesCount]
    }

    func export(deviceId: String, in db: Database) throws -> [String: JSONObject] {
        var data: [String: JSONObject] = [:]
        if let row = try Row.fetchOne(db, sql: "SELECT rules, version, published FROM children WHERE device_id = ?", arguments: [deviceId]) {
            data["rules"] = JSONObject(payload: row["rules"])
            data["policyVersion"] = .number(Double(row["version"] as Int))
            if let published: Data = row["published"] { data["restrictions"] = JSONObject(payload: published) }
        }
        data["usage"] = .array(
            try Row.fetchAll(db, sql: "SELECT ts, app, category, seconds FROM usage WHERE device_id = ? ORDER BY ts", arguments: [deviceId]).map { row in
                var item: [String: JSONObject] = [
                    "ts": .string(Timestamp(milliseconds: row["ts"]).rfc3339), "app": .string(row["app"]), "seconds": .number(row["seconds"]),
                ]
                if let category: String = row["category"] { item["category"] = .string(category) }
                return .object(item)
            })
        return data
    }

    func forgetChild(_ deviceId: String) throws(StorageError) {
        try store.write { db in try db.execute(sql: "DELETE FROM children WHERE device_id = ?", arguments: [deviceId]) }
    }
}
