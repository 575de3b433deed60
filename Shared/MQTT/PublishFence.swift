import Glibc
import Synchronization

/// The publishes made by the handlers of a connection's turns (on the client's publishing
/// connection) that the broker has not yet acknowledged. The connection writes nothing, and so no
/// acknowledgement of a message it read, while any is left (see
/// `MQTTConfiguration.acknowledgesAfterPublishing`); it goes on reading meanwhile, and the broker
/// sends it no more than its receive maximum of messages unacknowledged.
///
/// libmosquitto 2.0 queues a message's acknowledgement as it reads the message, before any handler
/// runs, and has no manual acknowledgement: on one connection the acknowledgements always go out
/// ahead of what the handlers publish, and a process killed between the two writes loses what it
/// caused. Holding the session's writes until the other connection's publishes are acknowledged
/// leaves each message either unacknowledged (the broker delivers it again) or with everything it
/// caused at the broker.
///
/// The handlers' publishes are handed to their connection only when the turn's delivery is over:
/// after the burst scope committed what they stored, as on one connection, where nothing a turn
/// queues is written before the turn's end.
final class PublishFence: @unchecked Sendable {
    private let count = Mutex(0)
    /// Publishes held until `release()`; only the thread whose fence this is touches them.
    private var held: [(MQTTConnection, MQTTOutgoing, MQTTConnection.Completion)] = []
    /// Run (on the acknowledging thread) when the last outstanding publish is settled.
    private let settled: @Sendable () -> Void

    init(settled: @escaping @Sendable () -> Void) { self.settled = settled }

    /// The fence of the turn running on this thread, if any.
    static var current: PublishFence? {
        pthread_getspecific(key).map { Unmanaged<PublishFence>.fromOpaque($0).takeUnretainedValue() }
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Makes this the current thread's fence until `close()`.
    func open() { pthread_setspecific(Self.key, Unmanaged.passUnretained(self).toOpaque()) }

    /// Stops holding publishes made on this thread.
    func close() { pthread_setspecific(Self.key, nil) }

    /// Holds a publish on `connection` made by a handler of the turn, until `release()`.
    func hold(_ message: MQTTOutgoing, on connection: MQTTConnection, onComplete: @escaping MQTTConnection.Completion) {
        held.append((connection, message, onComplete))
    }

    /// After `close()`: publishes what the handlers published, in order, each outstanding until the
    /// broker acknowledges it. Not those on a connection that has not connected yet: it waits for the
    /// session's subscriptions to be answered (`MQTTClient.connect`), which the session's turns read.
    func release() {
        guard !held.isEmpty else { return }
        let publishes = held
        held.removeAll(keepingCapacity: true)
        // Each connection once (a turn's publishes almost always go to one): whether it counts.
        var connections: [(connection: MQTTConnection, counts: Bool)] = []
        for (connection, _, _) in publishes where !connections.contains(where: { $0.connection === connection }) {
            connections.append((connection, connection.hasConnected))
        }
        func counts(_ connection: MQTTConnection) -> Bool { connections.first { $0.connection === connection }!.counts }
        count.withLock { $0 += publishes.filter { counts($0.0) }.count }
        for (connection, message, onComplete) in publishes {
            connection.enqueue(message, onComplete: counts(connection) ? settling(onComplete) : onComplete, wakes: false)
        }
        // Woken once, each connection writes the whole batch in one turn.
        for (connection, _) in connections { connection.wakeNetworkThread() }
    }

    /// A counted publish's completion, which settles it.
    private func settling(_ onComplete: @escaping MQTTConnection.Completion) -> MQTTConnection.Completion {
        { [self] result in
            let none = count.withLock { count in
                count -= 1
                return count == 0
            }
            onComplete(result)
            if none { settled() }
        }
    }

    /// How many publishes are outstanding.
    var outstanding: Int { count.withLock { $0 } }
}
