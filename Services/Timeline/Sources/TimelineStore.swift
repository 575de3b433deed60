import Foundation
import GRDB
import GuardianShared
import Logging

/// The timeline's store, as the brief designs it: location events, motion events (and whether the
/// phone charged, from its `state` events), each device's
/// slots (start times only, `edited` kept) with its labelled examples and model, and the outbox.
final class TimelineStore: Sendable {
    let store: ServiceStore

    static let migrations: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE motions (device_id TEXT NOT NULL, ts INTEGER NOT NULL, activity TEXT NOT NULL, PRIMARY KEY (device_id, ts)) WITHOUT ROWID;
                    CREATE TABLE locations (device_id TEXT NOT NULL, ts INTEGER NOT NULL, lat REAL NOT NULL, lon REAL NOT NULL,
                        PRIMARY KEY (device_id, ts)) WITHOUT ROWID;
                    CREATE TABLE devices (device_id TEXT PRIMARY KEY, timezone TEXT, state BLOB, dirty_from INTEGER, model BLOB);
                    CREATE TABLE examples (device_id TEXT NOT NULL, start INTEGER NOT NULL, example BLOB NOT NULL, PRIMARY KEY (device_id, start));
                    """)
        }
        migrator.registerMigration("v2 charges") { db in
            try db.execute(sql: "CREATE TABLE charges (device_id TEXT NOT NULL, ts INTEGER NOT NULL, charging INTEGER NOT NULL, PRIMARY KEY (device_id, ts)) WITHOUT ROWID")
        }
        DurableOutbox.register(in: &migrator)
        PrivacyDesk.register(in: &migrator)
        return migrator
    }()

    init(config: GuardianConfig, logger: Logger) throws(StorageError) {
        store = try ServiceStore(service: "timeline", config: config, migrations: TimelineStore.migrations, logger: logger)
    }

    private func ensureDevice(_ deviceId: String, in db: Database) throws {
        try db.execute(sql: "INSERT OR IGNORE INTO devices (device_id) VALUES (?)", arguments: [deviceId])
    }

    /// Stores a motion event; marks the device's timeline as needing events from `ts` on.
    func addMotion(_ deviceId: String, ts: Int64, activity: MotionActivity) throws(StorageError) {
        try store.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO motions VALUES (?, ?, ?)", arguments: [deviceId, ts, activity.rawValue])
            try markDirty(deviceId, from: ts, in: db)
        }
    }

    func addLocation(_ deviceId: String, ts: Int64, point: GeoPoint) throws(StorageError) {
        try store.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO locations VALUES (?, ?, ?, ?)", arguments: [deviceId, ts, point.lat, point.lon])
            try markDirty(deviceId, from: ts, in: db)
        }
    }

    /// Stores whether the phone charges from `ts` on.
    func addCharge(_ deviceId: String, ts: Int64, charging: Bool) throws(StorageError) {
        try store.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO charges VALUES (?, ?, ?)", arguments: [deviceId, ts, charging])
            try markDirty(deviceId, from: ts, in: db)
        }
    }

    /// Every charge event up to `until` (a couple a day).
    func charges(_ deviceId: String, until: Int64) throws(StorageError) -> [ChargeEvent] {
        try store.read { db in
            try Row.fetchAll(db, sql: "SELECT ts, charging FROM charges WHERE device_id = ? AND ts <= ? ORDER BY ts", arguments: [deviceId, until])
                .map { ChargeEvent(timestamp: $0["ts"], charging: $0["charging"]) }
        }
    }

    private func markDirty(_ deviceId: String, from ts: Int64, in db: Database) throws {
        try ensureDevice(deviceId, in: db)
        try db.execute(sql: "UPDATE devices SET dirty_from = min(coalesce(dirty_from, ?), ?) WHERE device_id = ?", arguments: [ts, ts, deviceId])
    }

    func setTimeZone(_ deviceId: String, identifier: String) throws(StorageError) {
        try store.write { db in
            try ensureDevice(deviceId, in: db)
            try db.execute(sql: "UPDATE devices SET timezone = ? WHERE device_id = ?", arguments: [identifier, deviceId])
        }
    }

    struct Device {
        var timeZone: TimeZone
        var state: TimelineState
        var dirtyFrom: Int64?
        var model: Data?
    }

    func device(_ deviceId: String) throws(StorageError) -> Device {
        try store.read { db in try device(deviceId, in: db) }
    }

    func device(_ deviceId: String, in db: Database) throws -> Device {
        let row = try Row.fetchOne(db, sql: "SELECT timezone, state, dirty_from, model FROM devices WHERE device_id = ?", arguments: [deviceId])
        let zone = (row?["timezone"] as String?).flatMap(TimeZone.init(identifier:)) ?? TimeZone(identifier: "UTC")!
        let state = (row?["state"] as Data?).flatMap { try? JSONDecoder().decode(TimelineState.self, from: $0) } ?? TimelineState()
        return Device(timeZone: zone, state: state, dirtyFrom: row?["dirty_from"], model: row?["model"])
    }

    func hasDevice(_ deviceId: String) throws(StorageError) -> Bool {
        try store.read { db in try Bool.fetchOne(db, sql: "SELECT 1 FROM devices WHERE device_id = ?", arguments: [deviceId]) ?? false }
    }

    /// Locations from the one before the last one at or before `from` (from twice
    /// `AnnotatedEvent.recentFixes` before `from`, if earlier: a ride's speed before a silence is read
    /// from them), and motion events from the known one in effect at the earlier of that location and
    /// `from`, until `until` (what `TimelineGenerator.update` needs).
    func events(_ deviceId: String, from: Int64?, until: Int64) throws(StorageError) -> ([MotionEvent], [LocationEvent]) {
        try store.read { db in
            let lower = from ?? .min
            let lastTwo = try Int64.fetchOne(
                db, sql: "SELECT min(ts) FROM (SELECT ts FROM locations WHERE device_id = ? AND ts <= ? ORDER BY ts DESC LIMIT 2)",
                arguments: [deviceId, lower]) ?? lower
            let start = min(lastTwo, from.map { $0 - 2 * AnnotatedEvent.recentFixes } ?? lower)
            let motionStart = try Int64.fetchOne(
                db, sql: "SELECT max(ts) FROM motions WHERE device_id = ? AND ts <= ? AND activity != ?",
                arguments: [deviceId, min(start, lower), MotionActivity.unknown.rawValue]) ?? min(start, lower)
            let motion = try Row.fetchAll(
                db, sql: "SELECT ts, activity FROM motions WHERE device_id = ? AND ts >= ? AND ts <= ? ORDER BY ts",
                arguments: [deviceId, motionStart, until]
            ).compactMap { row in MotionActivity(rawValue: row["activity"]).map { MotionEvent(timestamp: row["ts"], activity: $0) } }
            let locations = try Row.fetchAll(
                db, sql: "SELECT ts, lat, lon FROM locations WHERE device_id = ? AND ts >= ? AND ts <= ? ORDER BY ts",
                arguments: [deviceId, min(start, lower), until]
            ).map { LocationEvent(timestamp: $0["ts"], location: GeoPoint(lat: $0["lat"], lon: $0["lon"])) }
            return (motion, locations)
        }
    }

    func latestEvent(_ deviceId: String) throws(StorageError) -> Int64? {
        try store.read { db in
            try Int64.fetchOne(
                db, sql: "SELECT max(ts) FROM (SELECT max(ts) AS ts FROM motions WHERE device_id = ? UNION ALL SELECT max(ts) FROM locations WHERE device_id = ?)",
                arguments: [deviceId, deviceId])
        }
    }

    func save(_ deviceId: String, state: TimelineState, clearDirty: Bool, model: Data? = nil, in db: Database) throws {
        try ensureDevice(deviceId, in: db)
        try db.execute(sql: "UPDATE devices SET state = ? WHERE device_id = ?", arguments: [GuardianJSON.encode(state), deviceId])
        if clearDirty { try db.execute(sql: "UPDATE devices SET dirty_from = NULL WHERE device_id = ?", arguments: [deviceId]) }
        if let model { try db.execute(sql: "UPDATE devices SET model = ? WHERE device_id = ?", arguments: [model, deviceId]) }
    }

    func addExample(_ deviceId: String, _ example: LabelledSlot, in db: Database) throws {
        try db.execute(sql: "INSERT OR REPLACE INTO examples VALUES (?, ?, ?)", arguments: [deviceId, example.start, GuardianJSON.encode(example)])
    }

    func examples(_ deviceId: String) throws(StorageError) -> [LabelledSlot] {
        try store.read { db in
            try Data.fetchAll(db, sql: "SELECT example FROM examples WHERE device_id = ? ORDER BY start", arguments: [deviceId])
                .compactMap { try? JSONDecoder().decode(LabelledSlot.self, from: $0) }
        }
    }

    // MARK: Privacy

    /// Deletes the device's events, timeline, model and corrections.
    func erase(deviceId: String, in db: Database) throws -> [String: Int] {
        var erased: [String: Int] = [:]
        for (kind, table) in [("motions", "motions"), ("locations", "locations"), ("charges", "charges"), ("timelines", "devices"), ("corrections", "examples")] {
            try db.execute(sql: "DELETE FROM \(table) WHERE device_id = ?", arguments: [deviceId])
            erased[kind] = db.changesCount
        }
        return erased
    }

    /// Forgets motion, location and charge events before `events`, corrections before `corrections`, and
    /// the slots that ended before `timelines` (a device with none left entirely, its model too).
    /// `expiredDays` receives each device's days that no longer have a slot, to clear on the broker.
    func prune(
        events: Timestamp?, corrections: Timestamp?, timelines: Timestamp?, expiredDays: inout [(deviceId: String, date: String)], in db: Database
    ) throws -> [String: Int] {
        var pruned: [String: Int] = [:]
        if let events {
            try db.execute(sql: "DELETE FROM motions WHERE ts < ?", arguments: [events.milliseconds])
            var count = db.changesCount
            try db.execute(sql: "DELETE FROM locations WHERE ts < ?", arguments: [events.milliseconds])
            count += db.changesCount
            try db.execute(sql: "DELETE FROM charges WHERE ts < ?", arguments: [events.milliseconds])
            count += db.changesCount
            pruned["events"] = count
        }
        if let corrections {
            try db.execute(sql: "DELETE FROM examples WHERE start < ?", arguments: [corrections.milliseconds])
            pruned["corrections"] = db.changesCount
        }
        if let timelines {
            let cutoff = timelines.milliseconds
            var slots = 0
            for row in try Row.fetchAll(db, sql: "SELECT device_id FROM devices WHERE state IS NOT NULL") {
                let deviceId: String = row["device_id"]
                let device = try device(deviceId, in: db)
                let spans = device.state.spans
                let ended = spans.prefix { $0.end < cutoff }.count
                guard ended > 0 else { continue }
                var kept = device.state
                kept.slots.removeFirst(ended)
                let before = Set(DayTimeline.days(of: device.state, timeZone: device.timeZone).map(\.date))
                let after = Set(DayTimeline.days(of: kept, timeZone: device.timeZone).map(\.date))
                expiredDays += before.subtracting(after).sorted().map { (deviceId, $0) }
                slots += ended
                if kept.slots.isEmpty {
                    try db.execute(sql: "DELETE FROM devices WHERE device_id = ?", arguments: [deviceId])
                    try db.execute(sql: "DELETE FROM examples WHERE device_id = ?", arguments: [deviceId])
                } else {
                    try db.execute(sql: "UPDATE devices SET state = ? WHERE device_id = ?", arguments: [GuardianJSON.encode(kept), deviceId])
                }
            }
            pruned["timelines"] = slots
        }
        return pruned
    }

    /// Everything about the device: its events, its published days, its corrections.
    func export(deviceId: String, in db: Database) throws -> (
        motions: [JSONObject], locations: [JSONObject], charges: [JSONObject], device: Device, corrections: [JSONObject]
    ) {
        let motions = try Row.fetchAll(db, sql: "SELECT ts, activity FROM motions WHERE device_id = ? ORDER BY ts", arguments: [deviceId]).map {
            JSONObject.object(["ts": .string(Timestamp(milliseconds: $0["ts"]).rfc3339), "activity": .string($0["activity"])])
        }
        let locations = try Row.fetchAll(db, sql: "SELECT ts, lat, lon FROM locations WHERE device_id = ? ORDER BY ts", arguments: [deviceId]).map {
            JSONObject.object(["ts": .string(Timestamp(milliseconds: $0["ts"]).rfc3339), "lat": .number($0["lat"]), "lon": .number($0["lon"])])
        }
        let charges = try Row.fetchAll(db, sql: "SELECT ts, charging FROM charges WHERE device_id = ? ORDER BY ts", arguments: [deviceId]).map {
            JSONObject.object(["ts": .string(Timestamp(milliseconds: $0["ts"]).rfc3339), "charging": .bool($0["charging"])])
        }
        let corrections = try Data.fetchAll(db, sql: "SELECT example FROM examples WHERE device_id = ? ORDER BY start", arguments: [deviceId])
            .map(JSONObject.init(payload:))
        return (motions, locations, charges, try device(deviceId, in: db), corrections)
    }
}
