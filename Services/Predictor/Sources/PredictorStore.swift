import Foundation
import GRDB
import GuardianShared
import Logging

/// The predictor's store: the context it learned (budgets, time zones, regret rates), the last
/// model accepted from the topic, and the outbox.
final class PredictorStore: Sendable {
    let store: ServiceStore

    static let migrations: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE budgets (device_id TEXT PRIMARY KEY, utilization REAL NOT NULL, ts INTEGER NOT NULL);
                    CREATE TABLE time_zones (device_id TEXT PRIMARY KEY, identifier TEXT NOT NULL);
                    CREATE TABLE regret_rates (zone_id TEXT PRIMARY KEY, rate REAL NOT NULL);
                    CREATE TABLE topic_model (singleton INTEGER PRIMARY KEY CHECK (singleton = 1), version TEXT NOT NULL, model BLOB NOT NULL);
                    """)
        }
        DurableOutbox.register(in: &migrator)
        PrivacyDesk.register(in: &migrator)
        return migrator
    }()

    init(config: GuardianConfig, logger: Logger) throws(StorageError) {
        store = try ServiceStore(service: "predictor", config: config, migrations: PredictorStore.migrations, logger: logger)
    }

    func loadContext() throws(StorageError) -> DeviceContext {
        try store.read { db in
            var context = DeviceContext()
            for row in try Row.fetchAll(db, sql: "SELECT * FROM budgets") {
                context.budgets[row["device_id"]] = (row["utilization"], Timestamp(milliseconds: row["ts"]))
            }
            for row in try Row.fetchAll(db, sql: "SELECT * FROM time_zones") {
                if let zone = TimeZone(identifier: row["identifier"]) { context.timeZones[row["device_id"]] = zone }
            }
            for row in try Row.fetchAll(db, sql: "SELECT * FROM regret_rates") { context.regretRates[row["zone_id"]] = row["rate"] }
            return context
        }
    }

    func saveBudget(deviceId: String, utilization: Double, ts: Timestamp) throws(StorageError) {
        try store.write { db in
            try db.cachedStatement(sql: "INSERT OR REPLACE INTO budgets VALUES (?, ?, ?)")
                .execute(arguments: [deviceId, utilization, ts.milliseconds])
        }
    }

    func saveTimeZone(deviceId: String, identifier: String) throws(StorageError) {
        try store.write { db in try db.cachedStatement(sql: "INSERT OR REPLACE INTO time_zones VALUES (?, ?)")
            .execute(arguments: [deviceId, identifier]) }
    }

    func saveRegretRate(zoneId: String, rate: Double?) throws(StorageError) {
        try store.write { db in
            if let rate {
                try db.cachedStatement(sql: "INSERT OR REPLACE INTO regret_rates VALUES (?, ?)").execute(arguments: [zoneId, rate])
            } else {
                try db.cachedStatement(sql: "DELETE FROM regret_rates WHERE zone_id = ?").execute(arguments: [zoneId])
            }
        }
    }

    /// The last model message accepted from the topic (validated again before use).
    func topicModel() throws(StorageError) -> Data? {
        try store.read { db in try Data.fetchOne(db, sql: "SELECT model FROM topic_model") }
    }

    func saveTopicModel(_ message: Data, version: String) throws(StorageError) {
        try store.write { db in try db.cachedStatement(sql: "INSERT OR REPLACE INTO topic_model VALUES (1, ?, ?)")
            .execute(arguments: [version, message]) }
    }

    /// Deletes the device's budget and time zone.
    func erase(deviceId: String, in db: Database) throws -> [String: Int] {
        try db.execute(sql: "DELETE FROM budgets WHERE device_id = ?", arguments: [deviceId])
        let budgets = db.changesCount
        try db.execute(sql: "DELETE FROM time_zones WHERE device_id = ?", arguments: [deviceId])
        return ["budgets": budgets, "timeZones": db.changesCount]
    }

    func export(deviceId: String, in db: Database) throws -> [String: JSONObject] {
        var data: [String: JSONObject] = [:]
        if let row = try Row.fetchOne(db, sql: "SELECT utilization, ts FROM budgets WHERE device_id = ?", arguments: [deviceId]) {
            data["budget"] = .object(["utilization": .number(row["utilization"]), "ts": .string(Timestamp(milliseconds: row["ts"]).rfc3339)])
        }
        if let zone = try String.fetchOne(db, sql: "SELECT identifier FROM time_zones WHERE device_id = ?", arguments: [deviceId]) {
            data["timezone"] = .string(zone)
        }
        return data
    }
}
