import Foundation
import GRDB
import Logging
import Synchronization

/// One service's SQLite database, `{GUARDIAN_DATA_DIR}/{service}.sqlite`: WAL journal, `synchronous=NORMAL`
/// (a committed transaction survives a process crash), one process per store (an exclusive lock on
/// `{service}.sqlite.lock`: give each replica its own data directory), and migrations applied at open.
///
/// A WAL checkpoint syncs the disk. `checkpoint()`, which services call in the background every few
/// seconds, runs on a second connection of its own, so the sync never holds up the connection that
/// handles messages; SQLite checkpoints on the main connection only past 10,000 pages.
public final class ServiceStore: Sendable {
    public let path: String
    public let queue: DatabaseQueue
    /// The connection `checkpoint()` uses; nil in memory.
    private let checkpointer: DatabaseQueue?
    /// The open lock file that keeps other processes out; -1 in memory.
    private let lockDescriptor: Int32
    /// The thread running `inOneTransaction`, and that transaction's connection (read only by it).
    private let transactionThread = Atomic<UInt>(0)
    private nonisolated(unsafe) var transactionDatabase: Database?

    /// Opens (creating the directory and file if needed) and migrates. `path == ":memory:"` stays in memory.
    public init(path: String, migrations: DatabaseMigrator, logger: Logger) throws(StorageError) {
        self.path = path
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            if db.configuration.readonly == false {
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
                try db.execute(sql: "PRAGMA wal_autocheckpoint = 10000")
                // Deleted rows are overwritten, so an erased device leaves no readable trace in the file.
                try db.execute(sql: "PRAGMA secure_delete = ON")
            }
        }
        configuration.busyMode = .timeout(5)
        var lock: Int32 = -1
        do {
            if path == ":memory:" {
                queue = try DatabaseQueue(configuration: configuration)
                checkpointer = nil
            } else {
                let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
                try Self.prepareDirectory(directory, for: path)
                lock = try Self.lockExclusively(path)
                queue = try DatabaseQueue(path: path, configuration: configuration)
                try queue.writeWithoutTransaction { db in
                    let mode = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
                    if mode?.lowercased() != "wal" {
                        logger.warning("SQLite did not switch to WAL", metadata: [LogKey.path: "\(path)"])
                    }
                }
                var checkpointing = Configuration()
                checkpointing.busyMode = .timeout(5)
                checkpointer = try DatabaseQueue(path: path, configuration: checkpointing)
            }
            try migrations.migrate(queue)
        } catch {
            if lock >= 0 { close(lock) }
            switch error {
            case let error as StorageError: throw error
            case let error as DatabaseError:
                throw StorageError.cannotOpen(path: path, reason: error.message ?? "\(error.resultCode)", code: error.extendedResultCode.rawValue)
            default: throw StorageError.cannotOpen(path: path, reason: "\(error)", code: nil)
            }
        }
        lockDescriptor = lock
    }

    deinit {
        if lockDescriptor >= 0 { close(lockDescriptor) }
    }

    /// Takes the store's lock file, or says which process-level conflict stops it. A POSIX record lock
    /// belongs to the process: another process is kept out, while a test that reopens a store in the
    /// same process (a restart) is not.
    static func lockExclusively(_ path: String) throws(StorageError) -> Int32 {
        let descriptor = open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw StorageError.cannotOpen(path: path, reason: "cannot create \(path).lock: \(StorageError.osError(errno))", code: nil)
        }
        var whole = flock()
        whole.l_type = Int16(F_WRLCK)
        whole.l_whence = Int16(SEEK_SET)
        guard fcntl(descriptor, F_SETLK, &whole) == 0 else {
            let code = errno
            close(descriptor)
            let reason = code == EAGAIN || code == EACCES
                ? "another process is using this store (give each replica its own GUARDIAN_DATA_DIR)" : "cannot lock \(path).lock: \(StorageError.osError(code))"
            throw StorageError.cannotOpen(path: path, reason: reason, code: nil)
        }
        return descriptor
    }

    /// The database of `service` under the configured data directory.
    public convenience init(service: String, config: GuardianConfig, migrations: DatabaseMigrator, logger: Logger) throws(StorageError) {
        let path = URL(fileURLWithPath: config.dataDirectory).appendingPathComponent("\(service).sqlite").path
        try self.init(path: path, migrations: migrations, logger: logger)
    }

    /// Runs `body` in one write transaction, mapping SQLite failures (disk full, read-only) to `StorageError`.
    /// A failure of the storage itself (full, read-only, I/O error) first goes to the process's
    /// `StorageFailure` handler: in a service process that stops the process, so the write is never
    /// silently skipped and the message being handled is not acknowledged.
    /// Inside `inOneTransaction` on the same thread, joins that transaction in a savepoint (a failure
    /// undoes only this write).
    public func write<T>(_ body: (Database) throws -> T) throws(StorageError) -> T {
        do {
            if let db = joinableTransaction { return try Self.inSavepoint(db, body) }
            return try queue.write(body)
        } catch let error as DatabaseError {
            let failure = StorageError.writeFailed(path: path, reason: error.message ?? "\(error.resultCode)", code: error.extendedResultCode.rawValue)
            if StorageFailure.isStorageFailure(error.extendedResultCode.rawValue) { StorageFailure.occurred(failure) }
            throw failure
        } catch {
            throw StorageError.writeFailed(path: path, reason: "\(error)", code: nil)
        }
    }

    /// Runs `body` in one write transaction that every `write` and `read` it makes on this thread
    /// joins: a message handler stores a whole burst of messages with one commit.
    public func inOneTransaction<T>(_ body: () throws -> T) throws(StorageError) -> T {
        if joinableTransaction != nil {  // already inside one on this thread: it is the transaction
            do { return try body() } catch let error as StorageError { throw error } catch {
                throw StorageError.writeFailed(path: path, reason: "\(error)", code: nil)
            }
        }
        return try write { db in
            transactionDatabase = db
            transactionThread.store(UInt(pthread_self()), ordering: .releasing)
            defer {
                transactionThread.store(0, ordering: .releasing)
                transactionDatabase = nil
            }
            return try body()
        }
    }

    /// GRDB's `inSavepoint` prepares its three statements anew each time; a burst runs one savepoint
    /// per message, so these are cached.
    private static func inSavepoint<T>(_ db: Database, _ body: (Database) throws -> T) throws -> T {
        try db.cachedStatement(sql: "SAVEPOINT message").execute()
        do {
            let result = try body(db)
            try db.cachedStatement(sql: "RELEASE SAVEPOINT message").execute()
            return result
        } catch {
            try? db.cachedStatement(sql: "ROLLBACK TRANSACTION TO SAVEPOINT message").execute()
            try? db.cachedStatement(sql: "RELEASE SAVEPOINT message").execute()
            throw error
        }
    }

    private var joinableTransaction: Database? {
        guard transactionThread.load(ordering: .acquiring) == UInt(pthread_self()) else { return nil }
        return transactionDatabase
    }

    /// Copies the WAL into the database file without waiting for readers (PASSIVE).
    public func checkpoint() throws(StorageError) {
        guard let checkpointer else { return }
        do {
            try checkpointer.writeWithoutTransaction { db in _ = try db.checkpoint(.passive) }
        } catch {
            throw StorageError.writeFailed(path: path, reason: "checkpoint: \(error)", code: nil)
        }
    }

    /// Copies the whole WAL into the database file and truncates it to zero bytes, so that no old
    /// page (e.g. of rows just erased) survives in it. Waits for a writer on another connection;
    /// inside a joined transaction it does nothing (the next checkpoint copies the pages).
    public func truncateLog() throws(StorageError) {
        guard path != ":memory:", joinableTransaction == nil else { return }
        do {
            try queue.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
        } catch {
            throw StorageError.writeFailed(path: path, reason: "checkpoint: \(error)", code: nil)
        }
    }

    /// Creates the data directory if needed and checks that SQLite can create files in it, so that
    /// an unusable directory is named with the operating system's reason (not "disk I/O error").
    static func prepareDirectory(_ directory: String, for path: String) throws(StorageError) {
        var current = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/") where !component.isEmpty {
            current += "/\(component)"
            if mkdir(current, 0o755) != 0 && errno != EEXIST {
                throw StorageError.cannotOpen(path: path, reason: "cannot create directory \(current): \(StorageError.osError(errno))", code: nil)
            }
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw StorageError.cannotOpen(path: path, reason: "\(directory) is not a directory", code: nil)
        }
        if access(directory, W_OK | X_OK) != 0 {
            throw StorageError.cannotOpen(path: path, reason: "data directory \(directory) is not writable: \(StorageError.osError(errno))", code: nil)
        }
    }

    public func read<T>(_ body: (Database) throws -> T) throws(StorageError) -> T {
        do {
            if let db = joinableTransaction { return try body(db) }
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
    /// `strerror` with the number, e.g. "Read-only file system (errno 30)".
    static func osError(_ code: Int32) -> String { "\(String(cString: strerror(code))) (errno \(code))" }

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
