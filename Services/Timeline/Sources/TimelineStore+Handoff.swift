import Foundation
import GRDB
import GuardianShared

extension TimelineStore {
    func deviceIds() throws(StorageError) -> [String] {
        try store.read { db in try String.fetchAll(db, sql: "SELECT device_id FROM devices") }
    }

    /// Every row about the device, or nil when there is none.
    func handoff(_ deviceId: String) throws(StorageError) -> TimelineHandoff? {
        try store.read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM devices WHERE device_id = ?", arguments: [deviceId]) else { return nil }
            return TimelineHandoff(
                timezone: row["timezone"], state: row["state"], dirtyFrom: row["dirty_from"], model: row["model"],
                motions: try Row.fetchAll(db, sql: "SELECT ts, activity FROM motions WHERE device_id = ? ORDER BY ts", arguments: [deviceId])
                    .map { TimelineHandoff.MotionRow(ts: $0["ts"], activity: $0["activity"]) },
                locations: try Row.fetchAll(db, sql: "SELECT ts, lat, lon FROM locations WHERE device_id = ? ORDER BY ts", arguments: [deviceId])
                    .map { TimelineHandoff.LocationRow(ts: $0["ts"], lat: $0["lat"], lon: $0["lon"]) },
                charges: try Row.fetchAll(db, sql: "SELECT ts, charging FROM charges WHERE device_id = ? ORDER BY ts", arguments: [deviceId])
                    .map { TimelineHandoff.ChargeRow(ts: $0["ts"], charging: $0["charging"]) },
                examples: try Row.fetchAll(db, sql: "SELECT start, example FROM examples WHERE device_id = ? ORDER BY start", arguments: [deviceId])
                    .map { TimelineHandoff.ExampleRow(start: $0["start"], example: $0["example"]) })
        }
    }

    /// Adds the rows handed off to what is held. A device with no timeline yet takes the one handed
    /// off (and its model); one that has a timeline keeps it and regenerates from the earliest event
    /// handed off.
    func adopt(_ handoff: TimelineHandoff, deviceId: String) throws(StorageError) {
        try store.write { db in
            let held = try Row.fetchOne(db, sql: "SELECT state, dirty_from FROM devices WHERE device_id = ?", arguments: [deviceId])
            for row in handoff.motions {
                try db.cachedStatement(sql: "INSERT OR IGNORE INTO motions VALUES (?, ?, ?)").execute(arguments: [deviceId, row.ts, row.activity])
            }
            for row in handoff.locations {
                try db.cachedStatement(sql: "INSERT OR IGNORE INTO locations VALUES (?, ?, ?, ?)").execute(arguments: [deviceId, row.ts, row.lat, row.lon])
            }
            for row in handoff.charges ?? [] {
                try db.cachedStatement(sql: "INSERT OR IGNORE INTO charges VALUES (?, ?, ?)").execute(arguments: [deviceId, row.ts, row.charging])
            }
            for row in handoff.examples {
                try db.cachedStatement(sql: "INSERT OR IGNORE INTO examples VALUES (?, ?, ?)").execute(arguments: [deviceId, row.start, row.example])
            }
            let heldDirty: Int64? = held?["dirty_from"]
            let heldState: Data? = held?["state"]
            if heldState == nil {
                let dirty = [heldDirty, handoff.dirtyFrom].compactMap { $0 }.min()
                try db.execute(
                    sql: "INSERT OR REPLACE INTO devices (device_id, timezone, state, dirty_from, model) VALUES (?, ?, ?, ?, ?)",
                    arguments: [deviceId, handoff.timezone, handoff.state, dirty, handoff.model])
            } else {
                let earliest = (handoff.motions.map(\.ts) + handoff.locations.map(\.ts) + (handoff.charges ?? []).map(\.ts)
                    + [handoff.dirtyFrom].compactMap { $0 }).min()
                let dirty = [heldDirty, earliest].compactMap { $0 }.min()
                try db.execute(
                    sql: "UPDATE devices SET timezone = coalesce(timezone, ?), dirty_from = ? WHERE device_id = ?",
                    arguments: [handoff.timezone, dirty, deviceId])
            }
        }
    }
}
