import CMosquitto
import Foundation
import Glibc

/// The network loop, built from libmosquitto's `loop_read` / `loop_write` / `loop_misc` instead of
/// `mosquitto_loop`, so that two things happen between reading a burst of packets and writing the
/// acknowledgements it queued:
///
/// - burst handlers see every message of the burst at once (one database transaction for all of
///   them), and the broker's acknowledgements are written only after they return (with
///   `acknowledgesAfterPublishing`, only once the broker acknowledged all they published: `PublishFence`);
/// - publishes waiting for room in the publish window are handed over.
///
/// The writes of one turn go out corked, as few TCP segments. After a turn that read something, the
/// thread pauses for `coalescingPause` before polling again, so that under load a turn handles many
/// messages with one transaction instead of one or two. Other threads that queue something to
/// send wake the loop through a pipe, only while it sleeps in `poll`.
extension MQTTConnection {
    static let maxReadsPerBurst = 1000
    /// Runs one turn; returns libmosquitto's result (anything but success ends the connection).
    func turn(timeoutMilliseconds: Int32) -> Int32 {
        let success = Int32(MOSQ_ERR_SUCCESS.rawValue)
        var busy = false
        let socket = mosquitto_socket(handle)
        guard socket >= 0 else { return Int32(MOSQ_ERR_NO_CONN.rawValue) }
        // Announced before looking for work to write, so a packet queued after the look wakes the poll.
        polling.store(true, ordering: .sequentiallyConsistent)
        let fenced = configuration.acknowledgesAfterPublishing
        var events = Int16(POLLIN)
        if mosquitto_want_write(handle) && !(fenced && fence.holdsWrites) { events |= Int16(POLLOUT) }
        var fds = [pollfd(fd: socket, events: events, revents: 0), pollfd(fd: wakePipe.read, events: Int16(POLLIN), revents: 0)]
        let ready = poll(&fds, 2, timeoutMilliseconds)
        polling.store(false, ordering: .sequentiallyConsistent)
        if ready < 0 {
            return errno == EINTR ? success : Int32(MOSQ_ERR_ERRNO.rawValue)
        }
        if fds[1].revents & Int16(POLLIN) != 0 { drainWakePipe() }
        if fenced { fence.open() }
        if fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
            // libmosquitto ends a read early whenever errno reads EAGAIN, and its own wake-up pipe,
            // which nothing drains here, leaves exactly that after each packet it queues: keep
            // reading until a read completes no packet (the socket is drained), up to a bound that
            // keeps acknowledgements prompt.
            let before = packetsSeen.load(ordering: .relaxed)
            var reads = 0
            while reads < Self.maxReadsPerBurst {
                let seen = packetsSeen.load(ordering: .relaxed)
                errno = 0
                let rc = mosquitto_loop_read(handle, 1)
                if rc != success || mosquitto_socket(handle) < 0 {
                    if fenced {
                        fence.close()
                        fence.release()
                    }
                    return rc
                }
                reads += 1
                // Right after the broker accepted the connection, the subscriptions go out before any
                // message is read: a message's publishes may then hold every write back (`PublishFence`),
                // and the publishing connection connects only once the subscriptions are answered.
                if connackRead.exchange(false, ordering: .relaxed) { break }
                if packetsSeen.load(ordering: .relaxed) == seen { break }
            }
            busy = packetsSeen.load(ordering: .relaxed) != before && reads < Self.maxReadsPerBurst
        }
        deliverBurst()
        if fenced {
            fence.close()
            fence.release()
        }
        releaseWaitingPublishes()
        // Nothing is written, and so no message acknowledged, while what handlers published is not
        // all acknowledged: the next turns read on, and the fence wakes the loop once it is.
        if mosquitto_want_write(handle) && !(fenced && fence.holdsWrites) {
            setCork(socket, true)
            let rc = mosquitto_loop_write(handle, 1)
            if rc != success || mosquitto_socket(handle) < 0 { return rc }
            setCork(socket, false)
        }
        if busy { pause(configuration.coalescingPause) }
        return mosquitto_loop_misc(handle)
    }

    private func pause(_ duration: Duration) {
        guard duration > .zero else { return }
        let (seconds, attoseconds) = duration.components
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        _ = nanosleep(&request, nil)
    }

    /// The longest the network thread spends writing DISCONNECT, and then waiting for the broker to
    /// close the connection: a ceiling for a broker that stopped answering, not an expected time.
    static let disconnectCeiling: Duration = .seconds(5)

    /// Sends the DISCONNECT `shutdown` asked for, once, from the network thread between turns, and
    /// writes it at once. Returns a second descriptor of the socket, for `closeCleanly` once
    /// libmosquitto has closed its own (it does right after writing DISCONNECT).
    ///
    /// Two ways a DISCONNECT used to be lost, leaving a session meant to end (expiry 0) collecting
    /// messages, and sending the will:
    /// - once DISCONNECT is asked for, libmosquitto drops the connection, unwritten DISCONNECT and
    ///   all, as soon as it reads a PUBLISH: so it is written before anything more is read;
    /// - a socket closed with unread data (messages the broker sent meanwhile) is reset, and a
    ///   broker still writing to a reset connection drops it before reading what came last.
    func sendRequestedDisconnect() -> Int32? {
        let request = state.withLock { s -> DisconnectRequest? in
            guard let request = s.disconnectRequest, !request.sent else { return nil }
            s.disconnectRequest?.sent = true
            return request
        }
        guard let request else { return nil }
        let socket = mosquitto_socket(handle)
        if configuration.acknowledgesAfterPublishing && socket >= 0 && !awaitSettledFence() {
            // What the handlers published is not at the broker: end without writing anything, no
            // acknowledgement and no DISCONNECT. The broker keeps the session and its unacknowledged
            // messages (and sends the will) for whoever takes the session next.
            logger.warning("stopping with publishes of handled messages unacknowledged; their messages stay with the broker",
                           metadata: ["mqtt.client": "\(configuration.clientId)", "mqtt.outstanding": "\(fence.outstanding)"])
            _ = Glibc.shutdown(socket, Int32(SHUT_RDWR))
            return nil
        }
        let kept = socket >= 0 ? dup(socket) : -1
        var props = try? request.sessionExpiry.map(MQTTPropertyList.disconnect(sessionExpiry:))
        _ = mosquitto_disconnect_v5(handle, request.reason, props?.list)
        props?.free()
        let deadline = ContinuousClock.now + Self.disconnectCeiling
        while mosquitto_socket(handle) >= 0 && mosquitto_want_write(handle) && ContinuousClock.now < deadline {
            guard mosquitto_loop_write(handle, 1) == Int32(MOSQ_ERR_SUCCESS.rawValue) else { break }
            if mosquitto_socket(handle) >= 0 && mosquitto_want_write(handle) {
                var fd = pollfd(fd: socket, events: Int16(POLLOUT), revents: 0)
                _ = poll(&fd, 1, 100)
            }
        }
        return kept >= 0 ? kept : nil
    }

    /// Waits, reading nothing more, until what the handlers published is all acknowledged, for at
    /// most `disconnectCeiling`: DISCONNECT goes out after the acknowledgements it would otherwise
    /// write ahead of their publishes. False if it was not, or one was lost (`PublishFence`).
    private func awaitSettledFence() -> Bool {
        let deadline = ContinuousClock.now + Self.disconnectCeiling
        while fence.outstanding > 0 && !fence.hasLost && ContinuousClock.now < deadline {
            var fd = pollfd(fd: wakePipe.read, events: Int16(POLLIN), revents: 0)
            if poll(&fd, 1, 100) > 0 { drainWakePipe() }
        }
        return !fence.holdsWrites
    }

    /// Empties the wake-up pipe (its bytes only wake the thread).
    private func drainWakePipe() {
        var drained = [UInt8](repeating: 0, count: 64)
        while read(wakePipe.read, &drained, drained.count) == drained.count {}
    }

    /// Reads and drops what the broker still sends until it closes the connection (having read
    /// DISCONNECT), for at most `disconnectCeiling`, then closes `socket`: nothing is left unread,
    /// so the connection ends with FIN, not a reset.
    func closeCleanly(_ socket: Int32) {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        let deadline = ContinuousClock.now + Self.disconnectCeiling
        while ContinuousClock.now < deadline {
            var fd = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            let ready = poll(&fd, 1, 100)
            if ready < 0 && errno != EINTR { break }
            guard ready > 0 else { continue }
            let count = read(socket, &buffer, buffer.count)
            if count == 0 || (count < 0 && errno != EAGAIN && errno != EINTR) { break }
        }
        close(socket)
    }

    /// Wakes the network thread after another thread queued a packet (publish, subscribe,
    /// disconnect); the network thread itself writes at the end of its turn anyway.
    func wakeNetworkThread() {
        guard polling.compareExchange(expected: true, desired: false, ordering: .sequentiallyConsistent).exchanged, !onNetworkThread else { return }
        var byte: UInt8 = 1
        _ = write(wakePipe.write, &byte, 1)  // a full pipe already wakes it
    }

    var onNetworkThread: Bool {
        pthread_equal(pthread_self(), pthread_t(networkThread.load(ordering: .relaxed))) != 0
    }

    /// Hands the messages collected for burst handlers during this turn's read to their handlers in
    /// arrival order: each run of consecutive messages for one subscription is one call, and all the
    /// calls of the turn run inside the burst scope, if one is set.
    private func deliverBurst() {
        let (burst, scope) = state.withLock { s -> ([(UInt32, MQTTMessage)], BurstScope?) in
            defer { s.burst.removeAll(keepingCapacity: true) }
            return (s.burst, s.burstScope)
        }
        guard !burst.isEmpty else { return }
        guard let scope else { return deliverRuns(of: burst) }
        scope(burst.map(\.1)) { deliverRuns(of: burst) }
    }

    private func deliverRuns(of burst: [(UInt32, MQTTMessage)]) {
        var start = 0
        while start < burst.count {
            let id = burst[start].0
            var end = start + 1
            while end < burst.count && burst[end].0 == id { end += 1 }
            if case .burstHandler(let handler)? = state.withLock({ $0.registrations[id]?.delivery }) {
                handler(burst[start..<end].map(\.1))
            }
            start = end
        }
    }

    /// Hands over what the acknowledgements of this turn made room for.
    private func releaseWaitingPublishes() {
        let outcomes = state.withLock { s -> [(Completion, Result<Void, MQTTError>)] in
            s.waiting.isEmpty ? [] : releaseWaiting(state: &s)
        }
        for (onComplete, result) in outcomes { onComplete(result) }
    }

    private func setCork(_ socket: Int32, _ on: Bool) {
        var value: Int32 = on ? 1 : 0
        _ = setsockopt(socket, Int32(IPPROTO_TCP), TCP_CORK, &value, socklen_t(MemoryLayout<Int32>.size))
    }
}
