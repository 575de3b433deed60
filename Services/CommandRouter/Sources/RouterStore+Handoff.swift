import Foundation
import GRDB
import GuardianShared

extension RouterStore {
    /// Every child with rules, usage or a handled command.
    func childIds() throws(StorageError) -> [String] {
        try store.read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT device_id FROM children UNION SELECT device_id FROM usage
                    UNION SELECT device_id FROM handled WHERE device_id IS NOT NULL
                    """)
        }
    }

    func holds(_ deviceId: String) throws(StorageError) -> Bool {
        try store.read { db in
            try Bool.fetchOne(
                db,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM children WHERE device_id = ?1) OR EXISTS (SELECT 1 FROM usage WHERE device_id = ?1)
                    OR EXISTS (SELECT 1 FROM handled WHERE device_id = ?1)
                    """, arguments: [deviceId]) ?? false
        }
    }

    /// The child's usage and handled commands as stored, with `child` (memory's rules and policy).
    func handoff(_ deviceId: String, child: Child?) throws(StorageError) -> RouterHandoff? {
        try store.read { db in
            let usage = try Row.fetchAll(db, sql: "SELECT event_id, ts, app, category, seconds FROM usage WHERE device_id = ? ORDER BY ts", arguments: [deviceId])
                .map { RouterHandoff.Usage(id: $0["event_id"], ts: $0["ts"], app: $0["app"], category: $0["category"], seconds: $0["seconds"]) }
            let handled = try Row.fetchAll(db, sql: "SELECT command_id, parent, at FROM handled WHERE device_id = ?", arguments: [deviceId])
                .map { RouterHandoff.Handled(commandId: $0["command_id"], parent: $0["parent"], at: $0["at"]) }
            guard child != nil || !usage.isEmpty || !handled.isEmpty else { return nil }
            return RouterHandoff(rules: child?.rules, policyVersion: child?.version, published: child?.published, usage: usage, handled: handled)
        }
    }

    /// Adds the usage and handled commands handed off to what is held (each once) and stores
    /// `child`, in one transaction.
    func adopt(_ handoff: RouterHandoff, child: Child?, deviceId: String) throws(StorageError) {
        try store.write { db in
            for row in handoff.usage {
                try db.cachedStatement(sql: "INSERT OR IGNORE INTO usage (device_id, ts, app, category, seconds, event_id) VALUES (?, ?, ?, ?, ?, ?)")
                    .execute(arguments: [deviceId, row.ts, row.app, row.category, row.seconds, row.id])
            }
            for row in handoff.handled {
                try db.cachedStatement(sql: "INSERT OR IGNORE INTO handled (command_id, parent, at, device_id) VALUES (?, ?, ?, ?)")
                    .execute(arguments: [row.commandId, row.parent, row.at, deviceId])
            }
            if let child { try save(child, deviceId: deviceId, in: db) }
        }
    }

    /// The child's rules, usage and handled commands; unlike the privacy erase, its cached profile stays.
    func forget(deviceId: String, in db: Database) throws {
        for table in ["children", "usage", "handled"] {
            try db.execute(sql: "DELETE FROM \(table) WHERE device_id = ?", arguments: [deviceId])
        }
    }
}
