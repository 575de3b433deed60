import CMosquitto
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
///
/// A counted publish that fails because its connection shut down was never published: from then on
/// the connection writes nothing at all (`holdsWrites`) and ends without DISCONNECT, so the broker
/// keeps the messages for whoever takes the session next.
final class PublishFence: @unchecked Sendable {
    private let count = Mutex(0)
    private let lost = Atomic<Bool>(false)
    /// Publishes held until `release()`; only the thread whose fence this is touches them.
    private var held: [(MQTTConnection, MQTTOutgoing, MQTTConnection.Completion)] = []
    /// The fence's own descriptors of its connection's wake-up pipe, written when the last
    /// outstanding publish is settled. Acknowledgements arrive on another connection's thread and may
    /// come after this connection is gone (an adopted session's, on its owner's publisher): the pipe
    /// stays open while the fence lives, so they never write into a descriptor reused meanwhile.
    private let wakeRead: Int32, wakeWrite: Int32

    init(wakePipe: (read: Int32, write: Int32)) throws(MQTTError) {
        wakeRead = fcntl(wakePipe.read, F_DUPFD_CLOEXEC, 0)
        wakeWrite = fcntl(wakePipe.write, F_DUPFD_CLOEXEC, 0)
        guard wakeRead >= 0, wakeWrite >= 0 else {
            if wakeRead >= 0 { Glibc.close(wakeRead) }
            if wakeWrite >= 0 { Glibc.close(wakeWrite) }
            throw .library(operation: "dup", code: Int32(MOSQ_ERR_ERRNO.rawValue))
        }
    }

    deinit {
        Glibc.close(wakeRead)
        Glibc.close(wakeWrite)
    }

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
    /// broker acknowledges it (also on a publishing connection that has not connected yet: the session
    /// wrote its subscriptions before reading any message, see `MQTTConnection.turn`, and that
    /// connection waits only for their answers, which the session goes on reading).
    func release() {
        guard !held.isEmpty else { return }
        let publishes = held
        held.removeAll(keepingCapacity: true)
        count.withLock { $0 += publishes.count }
        var connections: [MQTTConnection] = []
        for (connection, message, onComplete) in publishes {
            connection.enqueue(message, onComplete: settling(onComplete), wakes: false)
            if !connections.contains(where: { $0 === connection }) { connections.append(connection) }
        }
        // Woken once, each connection writes the whole batch in one turn.
        for connection in connections { connection.wakeNetworkThread() }
    }

    /// A counted publish's completion, which settles it.
    private func settling(_ onComplete: @escaping MQTTConnection.Completion) -> MQTTConnection.Completion {
        { [self] result in
            if case .failure(.shutDown) = result { lost.store(true, ordering: .releasing) }
            let none = count.withLock { count in
                count -= 1
                return count == 0
            }
            onComplete(result)
            if none {
                var byte: UInt8 = 1
                _ = write(wakeWrite, &byte, 1)  // a full pipe already wakes it
            }
        }
    }

    /// How many publishes are outstanding.
    var outstanding: Int { count.withLock { $0 } }

    /// Whether the connection must write nothing: publishes are outstanding, or one was lost.
    var holdsWrites: Bool { outstanding > 0 || hasLost }

    /// Whether a publish of a handler failed because its connection shut down (see above).
    var hasLost: Bool { lost.load(ordering: .acquiring) }
}
