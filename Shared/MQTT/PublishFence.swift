import Foundation
import Glibc

/// The publishes made by the handlers of one network turn (on the client's publishing connection)
/// that the broker has not yet acknowledged. The turn writes its acknowledgements of the messages
/// it read only once none is left (see `MQTTConfiguration.acknowledgesAfterPublishing`).
///
/// libmosquitto 2.0 queues a message's acknowledgement as it reads the message, before any handler
/// runs, and has no manual acknowledgement: on one connection the acknowledgements always go out
/// ahead of what the handlers publish, and a process killed between the two writes loses what it
/// caused. Holding the turn's writes until the other connection's publishes are acknowledged leaves
/// each message either unacknowledged (the broker delivers it again) or with everything it caused
/// at the broker.
///
/// The handlers' publishes are handed to their connection only when the turn's delivery is over:
/// after the burst scope committed what they stored, as on one connection, where nothing a turn
/// queues is written before the turn's end.
final class PublishFence: @unchecked Sendable {
    private let condition = NSCondition()
    /// Guarded by `condition`.
    private var count = 0
    /// Publishes held until `release()`; only the thread whose fence this is touches them.
    private var held: [(MQTTConnection, MQTTOutgoing, MQTTConnection.Completion)] = []

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

    /// After `close()`: publishes what the handlers published, in order, each counted until the
    /// broker acknowledges it. Not those on a connection that has not connected yet: it waits for the
    /// session's subscriptions to be answered (`MQTTClient.connect`), which only the turns after this
    /// one read.
    func release() {
        let publishes = held
        held.removeAll(keepingCapacity: true)
        for (connection, message, onComplete) in publishes {
            connection.publish(message, onComplete: connection.hasConnected ? guarding(onComplete) : onComplete)
        }
    }

    /// Counts one publish; returns its completion, which settles it.
    private func guarding(_ onComplete: @escaping MQTTConnection.Completion) -> MQTTConnection.Completion {
        condition.lock()
        count += 1
        condition.unlock()
        return { [self] result in
            condition.lock()
            count -= 1
            if count == 0 { condition.broadcast() }
            condition.unlock()
            onComplete(result)
        }
    }

    /// How many publishes counted are not yet settled.
    var outstanding: Int {
        condition.lock()
        defer { condition.unlock() }
        return count
    }

    /// Waits until every publish counted is settled, or `givingUp()` (checked every 50 ms) says to stop waiting.
    func wait(givingUp: () -> Bool) {
        condition.lock()
        defer { condition.unlock() }
        while count > 0 && !givingUp() {
            _ = condition.wait(until: Date(timeIntervalSinceNow: 0.05))
        }
    }
}
