import Foundation
import GRDB
import Logging
import MQTT
import Synchronization

/// Messages a service must not lose: staged in the same transaction as the state change that
/// produced them, published after the commit, deleted once the broker acknowledges them, and
/// published again at the next start if the process died first (consumers drop repeats by `id`).
public final class DurableOutbox: Sendable {
    let store: ServiceStore
    let client: MQTTClient
    let logger: Logger
    private let acknowledged = Mutex<[Int64]>([])

    /// Adds the outbox table to a service's migrations.
    public static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("outbox-v1") { db in
            try db.execute(
                // No AUTOINCREMENT: it would write sqlite_sequence on every insert; new rows still sort last.
                sql: "CREATE TABLE outbox (seq INTEGER PRIMARY KEY, topic TEXT NOT NULL, payload BLOB NOT NULL, retain INTEGER NOT NULL)")
        }
    }

    public init(store: ServiceStore, client: MQTTClient, logger: Logger) {
        self.store = store
        self.client = client
        self.logger = logger
    }

    /// A staged message: its outbox row and what to publish.
    public struct Staged: Sendable {
        public let seq: Int64
        public let message: MQTTOutgoing
    }

    /// Records `message` inside the caller's write transaction.
    public func stage(_ message: MQTTOutgoing, in db: Database) throws -> Staged {
        try db.execute(
            sql: "INSERT INTO outbox (topic, payload, retain) VALUES (?, ?, ?)", arguments: [message.topic, message.payload, message.retain])
        return Staged(seq: db.lastInsertedRowID, message: message)
    }

    /// Publishes staged messages (after their transaction committed).
    public func send(_ staged: [Staged]) {
        for item in staged {
            client.publish(item.message) { [self] result in
                switch result {
                case .success: acknowledged.withLock { $0.append(item.seq) }
                case .failure(let error):
                    logger.warning("publish failed; kept for the next start", metadata: [LogKey.topic: "\(item.message.topic)", LogKey.error: "\(error)"])
                }
            }
        }
    }

    /// Publishes everything left from a previous run (call before connecting: libmosquitto queues it).
    @discardableResult
    public func replay() throws(StorageError) -> Int {
        let pending = try store.read { db in
            try Row.fetchAll(db, sql: "SELECT seq, topic, payload, retain FROM outbox ORDER BY seq").map { row in
                Staged(seq: row["seq"], message: MQTTOutgoing(topic: row["topic"], payload: row["payload"], retain: row["retain"]))
            }
        }
        if !pending.isEmpty { logger.notice("publishing messages left in the outbox", metadata: [LogKey.count: "\(pending.count)"]) }
        send(pending)
        return pending.count
    }

    /// Deletes acknowledged rows; returns how many.
    @discardableResult
    public func flush() -> Int {
        let seqs = acknowledged.withLock { ids -> [Int64] in
            defer { ids.removeAll(keepingCapacity: true) }
            return ids
        }
        guard !seqs.isEmpty else { return 0 }
        do {
            try store.write { db in
                for start in stride(from: 0, to: seqs.count, by: 500) {
                    let chunk = Array(seqs[start..<min(start + 500, seqs.count)])
                    try db.execute(
                        sql: "DELETE FROM outbox WHERE seq IN (\(Array(repeating: "?", count: chunk.count).joined(separator: ",")))",
                        arguments: StatementArguments(chunk))
                }
            }
        } catch {
            acknowledged.withLock { $0.append(contentsOf: seqs) }
            logger.error("cannot clear acknowledged outbox rows", metadata: [LogKey.error: "\(error)"])
            return 0
        }
        return seqs.count
    }

    /// Flushes every `interval` until cancelled, and checkpoints the store's WAL every few seconds
    /// (off the message path, which then never waits for a disk sync).
    public func runFlushing(every interval: Duration = .milliseconds(200)) async {
        var rounds = 0
        while !Task.isCancelled {
            try? await Task.sleep(for: interval)
            flush()
            rounds += 1
            if rounds % 25 == 0 { try? store.checkpoint() }
        }
        flush()
    }
}
