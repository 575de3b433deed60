import Foundation
import GRDB
import Logging

/// One service's SQLite database, `{GUARDIAN_DATA_DIR}/{service}.sqlite`: WAL journal, `synchronous=NORMAL`
/// (a committed transaction survives a process crash), exclusive locking (one process per store: give
/// each replica its own data directory), and migrations applied at open.
///
/// A WAL checkpoint syncs the disk; rather than every 1,000 pages inside a service's hot path, it
/// happens every 10,000 pages or when the service calls `checkpoint()` in the background.
public final class ServiceStore: Sendable {
    public let path: String
    public let queue: DatabaseQueue

    /// Opens (creating the directory and file if needed) and migrates. `path == ":memory:"` stays in memory.
    public init(path: String, migrations: DatabaseMigrator, logger: Logger) throws(StorageError) {
        self.path = path
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            if db.configuration.readonly == false {
                // One process owns a service's store: no file locks taken and released per transaction.
                try db.execute(sql: "PRAGMA locking_mode = EXCLUSIVE")
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
                try db.execute(sql: "PRAGMA wal_autocheckpoint = 10000")
            }
        }
        configuration.busyMode = .timeout(5)
        do {
            if path == ":memory:" {
                queue = try DatabaseQueue(configuration: configuration)
            } else {
                let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
                do {
                    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                } catch {
                    throw StorageError.cannotOpen(path: path, reason: "cannot create directory \(directory): \(error.localizedDescription)", code: nil)
                }
                queue = try DatabaseQueue(path: path, configuration: configuration)
                try queue.writeWithoutTransaction { db in
                    let mode = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
                    if mode?.lowercased() != "wal" {
                        logger.warning("SQLite did not switch to WAL", metadata: [LogKey.path: "\(path)"])
                    }
                }
            }
            try migrations.migrate(queue)
        } catch let error as StorageError {
            throw error
        } catch let error as DatabaseError {
            throw StorageError.cannotOpen(path: path, reason: error.message ?? "\(error.resultCode)", code: error.extendedResultCode.rawValue)
        } catch {
            throw StorageError.cannotOpen(path: path, reason: "\(error)", code: nil)
        }
    }

    /// The database of `service` under the configured data directory.
    public convenience init(service: String, config: GuardianConfig, migrations: DatabaseMigrator, logger: Logger) throws(StorageError) {
        let path = URL(fileURLWithPath: config.dataDirectory).appendingPathComponent("\(service).sqlite").path
        try self.init(path: path, migrations: migrations, logger: logger)
    }

    /// Runs `body` in one write transaction, mapping SQLite failures (disk full, read-only) to `StorageError`.
    public func write<T>(_ body: (Database) throws -> T) throws(StorageError) -> T {
        do {
            return try queue.write(body)
        } catch let error as DatabaseError {
            throw StorageError.writeFailed(path: path, reason: error.message ?? "\(error.resultCode)", code: error.extendedResultCode.rawValue)
        } catch {
            throw StorageError.writeFailed(path: path, reason: "\(error)", code: nil)
        }
    }

    /// Copies the WAL into the database file without waiting for readers (PASSIVE).
    public func checkpoint() throws(StorageError) {
        guard path != ":memory:" else { return }
        do {
            try queue.writeWithoutTransaction { db in _ = try db.checkpoint(.passive) }
        } catch {
            throw StorageError.writeFailed(path: path, reason: "checkpoint: \(error)", code: nil)
        }
    }

    public func read<T>(_ body: (Database) throws -> T) throws(StorageError) -> T {
        do {
            return try queue.read(body)
        } catch let error as DatabaseError {
            throw StorageError.readFailed(path: path, reason: error.message ?? "\(error.resultCode)", code: error.extendedResultCode.rawValue)
        } catch {
            throw StorageError.readFailed(path: path, reason: "\(error)", code: nil)
        }
    }
}

/// A storage failure, with SQLite's extended result code where there is one.
public enum StorageError: Error, CustomStringConvertible, Sendable {
    case cannotOpen(path: String, reason: String, code: Int32?)
    case writeFailed(path: String, reason: String, code: Int32?)
    case readFailed(path: String, reason: String, code: Int32?)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason, let code): return "cannot open database \(path): \(reason)\(code.map { " (SQLite \($0))" } ?? "")"
        case .writeFailed(let path, let reason, let code): return "cannot write database \(path): \(reason)\(code.map { " (SQLite \($0))" } ?? "")"
        case .readFailed(let path, let reason, let code): return "cannot read database \(path): \(reason)\(code.map { " (SQLite \($0))" } ?? "")"
        }
    }
}
