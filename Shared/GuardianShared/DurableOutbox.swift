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
    /// With `replayUnechoed`: the rows awaiting their echo, by topic and payload, oldest first.
    private let awaitingEcho = Mutex<[Echo: [Int64]]?>(nil)

    private struct Echo: Hashable {
        let topic: String
        let payload: Data

        /// Every byte: `Data`'s own hash reads only a prefix, which payloads of one kind share, and the
        /// index then degrades to a list compared byte by byte.
        func hash(into hasher: inout Hasher) {
            hasher.combine(topic)
            payload.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }

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
        try db.cachedStatement(sql: "INSERT INTO outbox (topic, payload, retain) VALUES (?, ?, ?)")
            .execute(arguments: [message.topic, message.payload, message.retain])
        return Staged(seq: db.lastInsertedRowID, message: message)
    }

    /// Publishes staged messages (after their transaction committed).
    public func send(_ staged: [Staged]) {
        awaitingEcho.withLock { index in
            guard index != nil else { return }
            for item in staged { index![Echo(topic: item.message.topic, payload: item.message.payload), default: []].append(item.seq) }
        }
        publish(staged)
    }

    private func publish(_ staged: [Staged]) {
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

    // MARK: Exactly once on the wire (opt-in)

    /// For messages a person must never see twice (notifications): instead of `replay()`, publishes
    /// again after a crash only what the broker never received.
    ///
    /// `replay()` cannot tell a message the broker acknowledged just before the crash (its row not yet
    /// cleared) from one it never got, so it sends both. Here the service also subscribes, in its own
    /// persistent session, to what it publishes (`echoes`, e.g. `guardian/notifications/+`): each echo
    /// deletes its row before the echo is acknowledged, so an echo the dead process never consumed is
    /// delivered again by the broker at restart. A barrier published now on `barrier` (a topic of the
    /// service's own, which it also subscribes to) comes back after every echo queued before it, and
    /// then the rows left from the previous run are exactly those the broker never received: they are
    /// published again. Should the barrier not come back within `timeout` (e.g. the ACL denies reading
    /// it), everything left is published again, as `replay()` would. Call before connecting.
    public func replayUnechoed(echoes filter: String, barrier: String, timeout: Duration = .seconds(30)) async throws {
        let previous = try store.read { db in
            try Row.fetchAll(db, sql: "SELECT seq, topic, payload FROM outbox ORDER BY seq").map { row in
                (seq: row["seq"] as Int64, echo: Echo(topic: row["topic"], payload: row["payload"]))
            }
        }
        let before = previous.last?.seq ?? 0
        awaitingEcho.withLock { index in
            var rows: [Echo: [Int64]] = [:]
            for row in previous { rows[row.echo, default: []].append(row.seq) }
            index = rows
        }
        let token = UUID().uuidString
        let pending = Mutex(true)
        let replayLeft: @Sendable (String) -> Void = { [self] why in
            guard pending.withLock({ p in defer { p = false }; return p }) else { return }
            do {
                let left = try store.read { db in
                    try Row.fetchAll(db, sql: "SELECT seq, topic, payload, retain FROM outbox WHERE seq <= ? ORDER BY seq", arguments: [before]).map { row in
                        Staged(seq: row["seq"], message: MQTTOutgoing(topic: row["topic"], payload: row["payload"], retain: row["retain"]))
                    }
                }
                if !left.isEmpty { logger.notice("publishing messages the broker never received", metadata: [LogKey.count: "\(left.count)", LogKey.reason: "\(why)"]) }
                publish(left)  // already awaiting their echo
            } catch {
                logger.error("cannot read the outbox", metadata: [LogKey.error: "\(error)"])
            }
        }
        // Both in bursts, so the barrier is seen after the echoes ahead of it are stored.
        try await client.subscribeInBursts(filter) { [self] messages in confirm(messages) }
        try await client.subscribeInBursts(barrier) { messages in
            if messages.contains(where: { $0.payload == Data(token.utf8) }) { replayLeft("barrier") }
        }
        client.publish(MQTTOutgoing(topic: barrier, payload: Data(token.utf8))) { _ in }
        Task { [logger] in
            try? await Task.sleep(for: timeout)
            guard pending.withLock({ $0 }) else { return }
            // Echoes do not come back (e.g. the ACL): stop waiting for them, as `replay()` would.
            logger.warning("outbox barrier did not come back; publishing everything left")
            awaitingEcho.withLock { $0 = nil }
            replayLeft("timeout")
        }
    }

    /// Echoes of what this service published: each one's row (the oldest with that topic and payload)
    /// is done. Echoes of what another replica published match no row and cost nothing.
    func confirm(_ echoes: [MQTTMessage]) {
        let seqs: [Int64] = awaitingEcho.withLock { index in
            echoes.compactMap { message in
                // One lookup (hashing the payload is most of the cost), then changes in place.
                guard let at = index?.index(forKey: Echo(topic: message.topic, payload: message.payload)) else { return nil }
                let first = index!.values[at].removeFirst()
                if index!.values[at].isEmpty { index!.remove(at: at) }
                return first
            }
        }
        guard !seqs.isEmpty else { return }
        do {
            try store.write { db in
                let delete = try db.cachedStatement(sql: "DELETE FROM outbox WHERE seq = ?")
                for seq in seqs { try delete.execute(arguments: [seq]) }
            }
        } catch {
            logger.error("cannot clear echoed outbox rows", metadata: [LogKey.error: "\(error)", LogKey.count: "\(seqs.count)"])
        }
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
