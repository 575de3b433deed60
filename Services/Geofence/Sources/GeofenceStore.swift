import Foundation
import GRDB
import GuardianShared
import Logging

/// Geofence's own store: zones as last received, each device's visits, and the outbox.
final class GeofenceStore: Sendable {
    let store: ServiceStore

    static let migrations: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE zones (zone_id TEXT PRIMARY KEY, zone BLOB NOT NULL);
                    CREATE TABLE devices (
                        device_id TEXT PRIMARY KEY,
                        last_fix INTEGER,
                        last_lat REAL,
                        last_lon REAL,
                        waypoint_lat REAL,
                        waypoint_lon REAL,
                        waypoint_zones TEXT NOT NULL DEFAULT ''
                    );
                    CREATE TABLE visits (
                        device_id TEXT NOT NULL,
                        zone_id TEXT NOT NULL,
                        entered_at INTEGER NOT NULL,
                        dwell_reported INTEGER NOT NULL,
                        PRIMARY KEY (device_id, zone_id)
                    );
                    """)
        }
        DurableOutbox.register(in: &migrator)
        PrivacyDesk.register(in: &migrator)
        return migrator
    }()

    init(config: GuardianConfig, logger: Logger) throws(StorageError) {
        store = try ServiceStore(service: "geofence", config: config, migrations: GeofenceStore.migrations, logger: logger)
    }

    func loadZones() throws(StorageError) -> [(String, DangerZone)] {
        try store.read { db in
            let decoder = JSONDecoder()
            return try Row.fetchAll(db, sql: "SELECT zone_id, zone FROM zones").compactMap { row in
                guard let zone = try? decoder.decode(DangerZone.self, from: row["zone"] as Data) else { return nil }
                return (row["zone_id"], zone)
            }
        }
    }

    func loadDevices() throws(StorageError) -> [String: DeviceVisits] {
        try store.read { db in
            var devices: [String: DeviceVisits] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT * FROM devices") {
                var state = DeviceVisits()
                state.lastFix = (row["last_fix"] as Int64?).map(Timestamp.init(milliseconds:))
                state.savedFix = state.lastFix
                if let lat: Double = row["last_lat"], let lon: Double = row["last_lon"] { state.lastPosition = (lat, lon) }
                if let lat: Double = row["waypoint_lat"], let lon: Double = row["waypoint_lon"] { state.waypointCenter = (lat, lon) }
                let zones: String = row["waypoint_zones"]
                state.waypointZones = zones.isEmpty ? [] : zones.split(separator: ",").map(String.init)
                devices[row["device_id"]] = state
            }
            for row in try Row.fetchAll(db, sql: "SELECT * FROM visits") {
                let visit = DeviceVisits.Visit(enteredAt: Timestamp(milliseconds: row["entered_at"]), dwellReported: row["dwell_reported"])
                devices[row["device_id"], default: DeviceVisits()].visits[row["zone_id"]] = visit
            }
            return devices
        }
    }

    func save(_ state: DeviceVisits, deviceId: String, in db: Database) throws {
        try db.execute(
            sql: """
                INSERT OR REPLACE INTO devices (device_id, last_fix, last_lat, last_lon, waypoint_lat, waypoint_lon, waypoint_zones)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                deviceId, state.lastFix?.milliseconds, state.lastPosition?.lat, state.lastPosition?.lon, state.waypointCenter?.lat,
                state.waypointCenter?.lon, state.waypointZones.joined(separator: ","),
            ])
        try db.cachedStatement(sql: "DELETE FROM visits WHERE device_id = ?").execute(arguments: [deviceId])
        for (zoneId, visit) in state.visits {
            try db.cachedStatement(sql: "INSERT INTO visits VALUES (?, ?, ?, ?)")
                .execute(arguments: [deviceId, zoneId, visit.enteredAt.milliseconds, visit.dwellReported])
        }
    }

    func saveZone(_ zone: DangerZone?, id: String, in db: Database) throws {
        if let zone {
            try db.cachedStatement(sql: "INSERT OR REPLACE INTO zones VALUES (?, ?)").execute(arguments: [id, GuardianJSON.encode(zone)])
        } else {
            try db.cachedStatement(sql: "DELETE FROM zones WHERE zone_id = ?").execute(arguments: [id])
        }
    }

    /// Deletes the device's position and visits; returns how many visits and device rows went.
    func erase(deviceId: String, in db: Database) throws -> [String: Int] {
        try db.execute(sql: "DELETE FROM visits WHERE device_id = ?", arguments: [deviceId])
        let visits = db.changesCount
        try db.execute(sql: "DELETE FROM devices WHERE device_id = ?", arguments: [deviceId])
        return ["visits": visits, "positions": db.changesCount]
    }

    /// Forgets devices whose last fix is older than `cutoff`, with their visits.
    func prune(lastFixBefore cutoff: Timestamp, in db: Database) throws -> Int {
        try db.execute(
            sql: "DELETE FROM visits WHERE device_id IN (SELECT device_id FROM devices WHERE last_fix < ?)", arguments: [cutoff.milliseconds])
        try db.execute(sql: "DELETE FROM devices WHERE last_fix < ?", arguments: [cutoff.milliseconds])
        return db.changesCount
    }

    /// The device's last position and open visits, for an export.
    func export(deviceId: String, in db: Database) throws -> [String: JSONObject] {
        var data: [String: JSONObject] = [:]
        if let row = try Row.fetchOne(db, sql: "SELECT * FROM devices WHERE device_id = ?", arguments: [deviceId]) {
            var position: [String: JSONObject] = [:]
            if let fix: Int64 = row["last_fix"] { position["ts"] = .string(Timestamp(milliseconds: fix).rfc3339) }
            if let lat: Double = row["last_lat"], let lon: Double = row["last_lon"] {
                position["lat"] = .number(lat)
                position["lon"] = .number(lon)
            }
            data["lastPosition"] = .object(position)
        }
        data["visits"] = .array(
            try Row.fetchAll(db, sql: "SELECT zone_id, entered_at, dwell_reported FROM visits WHERE device_id = ? ORDER BY entered_at", arguments: [deviceId])
                .map { row in
                    .object([
                        "zoneId": .string(row["zone_id"]), "enteredAt": .string(Timestamp(milliseconds: row["entered_at"]).rfc3339),
                        "dwellReported": .bool(row["dwell_reported"]),
                    ])
                })
        return data
    }
}
