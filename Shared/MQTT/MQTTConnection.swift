import CMosquitto
import DequeModule
import Foundation
import Logging
import Synchronization

/// Owns one `struct mosquitto` and its network thread; libmosquitto's callbacks reach it through
/// `Unmanaged` user data. All mutable state sits behind one mutex.
final class MQTTConnection: Sendable {
    enum Delivery {
        case stream(AsyncStream<MQTTMessage>.Continuation)
        case handler(@Sendable (MQTTMessage) -> Void)
        case burstHandler(@Sendable ([MQTTMessage]) -> Void)
    }

    struct Registration {
        let filter: String
        let qos: MQTTQoS
        let options: MQTTSubscribeOptions
        let delivery: Delivery
    }

    enum Phase { case idle, running, stopping, stopped }

    /// A DISCONNECT to send: its reason code and, if any, the session expiry that replaces the CONNECT's.
    struct DisconnectRequest {
        let reason: Int32
        let sessionExpiry: UInt32?
        var sent = false
    }

    typealias Completion = @Sendable (Result<Void, MQTTError>) -> Void
    typealias BurstScope = @Sendable (_ messages: [MQTTMessage], _ deliver: () -> Void) -> Void

    /// A publish not yet handed to libmosquitto: see `MQTTConfiguration.publishWindow`.
    struct WaitingPublish {
        let message: MQTTOutgoing
        let onComplete: Completion
    }

    struct State {
        var phase = Phase.idle
        var connected = false
        var registrations: [UInt32: Registration] = [:]
        var nextSubscriptionId: UInt32 = 1
        /// Completions of the QoS 1/2 publishes libmosquitto holds, by message id.
        var pendingPublishes: [Int32: Completion] = [:]
        /// Publishes waiting, in order, for the first connection or for room in the publish window.
        var waiting: Deque<WaitingPublish> = []
        /// Messages for synchronous handlers read in the current turn, with their registration.
        var burst: [(UInt32, MQTTMessage)] = []
        /// Wraps the burst handlers of one turn (see `MQTTClient.handleBursts(within:)`).
        var burstScope: BurstScope?
        var everConnected = false
        /// Why the last attempt to reach the broker failed ("Connection refused"), for a connect that times out.
        var lastFailure: String?
        var publishTopics: [Int32: String] = [:]
        var pendingSubacks: [Int32: UInt32] = [:]
        var subackWaiters: [UInt32: CheckedContinuation<Result<Void, MQTTError>, Never>] = [:]
        var connectWaiters: [UUID: CheckedContinuation<Result<Void, MQTTError>, Never>] = [:]
        var refusal: MQTTError?
        var loopFinished: CheckedContinuation<Void, Never>?
        var loopDone = false
        var threadStarted = false
        var statistics = MQTTStatistics()
        /// A registration ended while another kept its filter: the identifier the broker may still
        /// tag messages with, and the registration that now receives them.
        var successors: [UInt32: UInt32] = [:]
        /// Registrations that have (or no longer have) no subscription at the broker: handlers for
        /// what a session already holds (see `MQTTClient.withdraw(where:)`).
        var localOnly: Set<UInt32> = []
        /// The session-present flag of the latest CONNACK.
        var sessionPresent: Bool?
        /// The reason code of the latest disconnection (see `MQTTClient.disconnectReason`).
        var disconnectReason: Int32?
        /// The DISCONNECT `shutdown` asked for, sent by the network thread (see `sendRequestedDisconnect`).
        var disconnectRequest: DisconnectRequest?

        /// The registrations a message tagged with `identifiers` is for. The broker keeps one
        /// subscription per filter, tagged by the latest SUBSCRIBE: every registration with an
        /// identified registration's filter receives the message.
        func registrations(sharingFilterWith identifiers: [UInt32]) -> [(UInt32, Registration)] {
            var matching: [(UInt32, Registration)] = []
            for id in identifiers {
                guard let identified = registrations[id] ?? successors[id].flatMap({ registrations[$0] }) else { continue }
                for (other, registration) in registrations where registration.filter == identified.filter && !matching.contains(where: { $0.0 == other }) {
                    matching.append((other, registration))
                }
            }
            return matching
        }
    }

    /// libmosquitto initialised, once per process (its first initialisation also seeds the C library's `rand()`).
    static let libraryReady: Bool = { mosquitto_lib_init() == Int32(MOSQ_ERR_SUCCESS.rawValue) }()

    nonisolated(unsafe) let handle: OpaquePointer
    /// A pipe whose read end wakes the network thread's `poll` (see `MQTTConnection+Loop`).
    let wakePipe: (read: Int32, write: Int32)
    /// The network thread's `pthread_t`, once it runs.
    let networkThread = Atomic<UInt>(0)
    /// Packets libmosquitto handed to a callback (messages, acknowledgements): tells the loop when a
    /// read completed nothing.
    let packetsSeen = Atomic<Int>(0)
    /// Set when a CONNACK accepting the connection was read: the turn reads no further (`turn`).
    let connackRead = Atomic<Bool>(false)
    /// True while the network thread sleeps in `poll` (see `wakeNetworkThread`).
    let polling = Atomic<Bool>(false)
    let configuration: MQTTConfiguration
    let logger: Logger
    let state = Mutex(State())
    /// With `acknowledgesAfterPublishing`: what the handlers published that the broker has not acknowledged.
    let fence: PublishFence

    init(configuration: MQTTConfiguration, logger: Logger) throws(MQTTError) {
        guard Self.libraryReady else { throw .library(operation: "mosquitto_lib_init", code: Int32(MOSQ_ERR_UNKNOWN.rawValue)) }
        guard !configuration.clientId.isEmpty else { throw .invalidConfiguration("client id is empty") }
        self.configuration = configuration
        self.logger = logger
        guard let handle = mosquitto_new(configuration.clientId, configuration.cleanStart, nil) else {
            throw .library(operation: "mosquitto_new", code: Int32(MOSQ_ERR_NOMEM.rawValue))
        }
        self.handle = handle
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0,
            fcntl(ends[0], F_SETFL, O_NONBLOCK) == 0, fcntl(ends[1], F_SETFL, O_NONBLOCK) == 0,
            fcntl(ends[0], F_SETFD, FD_CLOEXEC) == 0, fcntl(ends[1], F_SETFD, FD_CLOEXEC) == 0
        else {
            mosquitto_destroy(handle)
            throw .library(operation: "pipe", code: Int32(MOSQ_ERR_ERRNO.rawValue))
        }
        wakePipe = (ends[0], ends[1])
        do {
            // Wakes the network thread when it may write again: the handlers' publishes all acknowledged.
            fence = try PublishFence(wakePipe: wakePipe)
        } catch {
            mosquitto_destroy(handle)
            close(ends[0])
            close(ends[1])
            throw error
        }
        // Callbacks run only on the network thread, whose closure keeps this object alive.
        mosquitto_user_data_set(handle, Unmanaged.passUnretained(self).toOpaque())
        do {
            try configure()
        } catch {
            destroy()
            throw error
        }
    }

    private func configure() throws(MQTTError) {
        let c = configuration
        try MQTTError.check(mosquitto_int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V5), "set MQTT 5")
        try MQTTError.check(mosquitto_threaded_set(handle, true), "mosquitto_threaded_set")
        try MQTTError.check(mosquitto_int_option(handle, MOSQ_OPT_RECEIVE_MAXIMUM, c.receiveMaximum), "receive maximum")
        try MQTTError.check(mosquitto_int_option(handle, MOSQ_OPT_SEND_MAXIMUM, c.sendMaximum), "send maximum")
        try MQTTError.check(mosquitto_int_option(handle, MOSQ_OPT_TCP_NODELAY, 1), "TCP_NODELAY")
        if c.username != nil || c.password != nil {
            try MQTTError.check(mosquitto_username_pw_set(handle, c.username, c.password), "mosquitto_username_pw_set")
        }
        if c.useTLS {
            if let ca = c.tlsCAFile {
                try MQTTError.check(mosquitto_tls_set(handle, ca, nil, nil, nil, nil), "mosquitto_tls_set")
            } else {
                try MQTTError.check(mosquitto_int_option(handle, MOSQ_OPT_TLS_USE_OS_CERTS, 1), "use OS certificates")
            }
        }
        if let will = c.will {
            var props = try MQTTPropertyList(will.properties)
            let rc = will.payload.withUnsafeBytes { bytes in
                mosquitto_will_set_v5(
                    handle, will.topic, Int32(bytes.count), bytes.baseAddress, will.qos.rawValue, will.retain, props.list)
            }
            try MQTTError.check(rc, "mosquitto_will_set_v5")
            props.release()  // libmosquitto owns the will's properties now
        }
        installCallbacks()
    }

    var isConnected: Bool { state.withLock { $0.connected } }

    var statistics: MQTTStatistics {
        state.withLock {
            var s = $0.statistics
            s.pendingPublishes = $0.pendingPublishes.count + $0.waiting.count
            return s
        }
    }

    // MARK: Connecting

    func connect(timeout: Duration?) async throws(MQTTError) {
        let start: Bool = try state.withLock { (s) throws(MQTTError) -> Bool in
            switch s.phase {
            case .idle:
                s.phase = .running
                s.threadStarted = true
                return true
            case .running: return false
            case .stopping, .stopped: throw .shutDown
            }
        }
        if start {
            let thread = Thread { [self] in
                networkThread.store(UInt(pthread_self()), ordering: .relaxed)
                runNetworkLoop()
            }
            thread.name = "mqtt-\(configuration.clientId)"
            thread.start()
        }
        let waiter = UUID()
        let timeoutTask = timeout.map { limit in
            Task { [self] in
                try? await Task.sleep(for: limit)
                let reason = state.withLock { $0.lastFailure }.map { " (last attempt: \($0))" } ?? ""
                resumeConnectWaiter(waiter, with: .failure(.timeout(operation: "connect to \(configuration.host):\(configuration.port)\(reason)")))
            }
        }
        defer { timeoutTask?.cancel() }
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Void, MQTTError>, Never>) in
            let immediate: Result<Void, MQTTError>? = state.withLock { s in
                if s.connected { return .success(()) }
                if let refusal = s.refusal { return .failure(refusal) }
                if s.phase != .running || s.loopDone { return .failure(.shutDown) }
                s.connectWaiters[waiter] = continuation
                return nil
            }
            if let immediate { continuation.resume(returning: immediate) }
        }
        try result.get()
    }

    func resumeConnectWaiter(_ id: UUID, with result: Result<Void, MQTTError>) {
        let waiter = state.withLock { $0.connectWaiters.removeValue(forKey: id) }
        waiter?.resume(returning: result)
    }

    /// The network thread: connect, run libmosquitto's loop, reconnect with exponential backoff.
    private func runNetworkLoop() {
        var delay = configuration.reconnectDelayMin
        var firstAttempt = true
        var failures = 0
        while !isStopping {
            let rc: Int32
            if firstAttempt {
                var props = try? MQTTPropertyList.connect(sessionExpiry: configuration.sessionExpirySeconds)
                rc = mosquitto_connect_bind_v5(
                    handle, configuration.host, Int32(configuration.port), configuration.keepAliveSeconds, nil, props?.list)
                props?.free()
            } else {
                rc = mosquitto_reconnect(handle)
            }
            if rc == Int32(MOSQ_ERR_SUCCESS.rawValue) {
                firstAttempt = false
                var loopRC = rc
                var stopDeadline: ContinuousClock.Instant?
                var disconnected: Int32?
                while true {
                    if let socket = sendRequestedDisconnect() { disconnected = socket }
                    loopRC = turn(timeoutMilliseconds: idlePollMilliseconds)
                    if loopRC != Int32(MOSQ_ERR_SUCCESS.rawValue) { break }
                    if isConnected { delay = configuration.reconnectDelayMin; failures = 0 }
                    // When stopping, keep looping until DISCONNECT is written (libmosquitto then closes the socket).
                    if isStopping {
                        if let deadline = stopDeadline {
                            if ContinuousClock.now > deadline { break }
                        } else {
                            stopDeadline = ContinuousClock.now + .seconds(2)
                        }
                    }
                }
                markDisconnected()
                if let disconnected { closeCleanly(disconnected) }
                if isStopping || !configuration.reconnects { break }
                logger.warning(
                    "MQTT connection lost; reconnecting",
                    metadata: ["mqtt.error": "\(String(cString: mosquitto_strerror(loopRC)))", "mqtt.client": "\(configuration.clientId)"])
            } else {
                failures += 1
                let reason = String(cString: mosquitto_strerror(rc))
                state.withLock { $0.lastFailure = reason }
                if !configuration.reconnects { break }
                if failures == 1 || failures % 20 == 0 {
                    logger.warning(
                        "cannot reach MQTT broker; retrying",
                        metadata: [
                            "mqtt.error": "\(String(cString: mosquitto_strerror(rc)))",
                            "mqtt.broker": "\(configuration.host):\(configuration.port)", "mqtt.attempts": "\(failures)",
                        ])
                }
            }
            sleepInterruptibly(delay)
            delay = min(delay * 2, configuration.reconnectDelayMax)
        }
        finishLoop()
    }

    private var idlePollMilliseconds: Int32 {
        let c = configuration.idlePollInterval.components
        return Int32(clamping: c.seconds * 1000 + c.attoseconds / 1_000_000_000_000_000)
    }

    private var isStopping: Bool { state.withLock { $0.phase == .stopping || $0.phase == .stopped } }

    private func sleepInterruptibly(_ duration: Duration) {
        let end = ContinuousClock.now + duration
        while !isStopping && ContinuousClock.now < end {
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    private func markDisconnected() {
        state.withLock { $0.connected = false }
    }

    private func finishLoop() {
        let (waiter, connectWaiters, failure) = state.withLock { s in
            s.loopDone = true
            s.connected = false
            let w = s.loopFinished
            s.loopFinished = nil
            defer { s.connectWaiters = [:] }
            return (w, Array(s.connectWaiters.values), s.refusal ?? .shutDown)
        }
        connectWaiters.forEach { $0.resume(returning: .failure(failure)) }
        waiter?.resume()
    }

    /// True once the network thread ended by itself: a connection that does not reconnect lost its connection.
    var hasEnded: Bool { state.withLock { $0.loopDone && $0.phase == .running } }

    // MARK: Publishing

    func publish(_ message: MQTTOutgoing, onComplete: @escaping Completion) {
        // Published by a handler in another connection's turn (not in this one's own, whose writes it
        // would have to wait behind): handed over when that turn's delivery is over (`PublishFence`).
        if let fence = PublishFence.current, fence !== self.fence {
            return fence.hold(message, on: self, onComplete: onComplete)
        }
        enqueue(message, onComplete: onComplete, wakes: true)
    }

    /// Publishes `message`; with `wakes` false, leaves waking the network thread to the caller
    /// (a batch wakes it once, and it writes the batch in one turn).
    func enqueue(_ message: MQTTOutgoing, onComplete: @escaping Completion, wakes: Bool) {
        guard TopicFilter.isValidTopic(message.topic) else {
            onComplete(.failure(.invalidTopic(message.topic)))
            return
        }
        // Decided and handed over with the state locked, so order is kept and the acknowledgement (on
        // the network thread) cannot arrive before the completion is registered under its message id.
        let failure: MQTTError?? = state.withLock { s in
            if s.phase == .stopped { return .some(.shutDown) }
            if mustWait(message, state: s) {
                s.waiting.append(WaitingPublish(message: message, onComplete: onComplete))
                s.statistics.published += 1
                return .none
            }
            return .some(publishLocked(message, onComplete: onComplete, wakes: wakes, state: &s))
        }
        switch failure {
        case .none: return
        case .some(let failure?): onComplete(.failure(failure))
        case .some(nil): if message.qos == .atMostOnce { onComplete(.success(())) }
        }
    }

    /// libmosquitto 2.0 sends a QoS 1/2 message queued before the first connection without its retain
    /// flag, and after messages published later, so such messages wait for the first CONNACK (once
    /// connected, libmosquitto queues what is published while offline correctly). After that a message
    /// waits while the publish window is full, or behind others that wait.
    private func mustWait(_ message: MQTTOutgoing, state s: State) -> Bool {
        let acknowledged = message.qos != .atMostOnce
        guard s.everConnected else { return acknowledged }
        return !s.waiting.isEmpty || (acknowledged && s.pendingPublishes.count >= configuration.publishWindow)
    }

    /// Publishes through libmosquitto with the state locked; registers the completion of a QoS 1/2 message.
    private func publishLocked(_ message: MQTTOutgoing, onComplete: @escaping Completion, wakes: Bool = true, state s: inout State) -> MQTTError? {
        var props: MQTTPropertyList
        do throws(MQTTError) { props = try MQTTPropertyList(message.properties) } catch { return error }
        defer { props.free() }
        var mid: Int32 = 0
        let rc = message.payload.withUnsafeBytes { bytes in
            mosquitto_publish_v5(
                handle, &mid, message.topic, Int32(bytes.count), bytes.baseAddress, message.qos.rawValue,
                message.retain, props.list)
        }
        let queuedWhileOffline = rc == Int32(MOSQ_ERR_NO_CONN.rawValue) && message.qos != .atMostOnce
        guard rc == Int32(MOSQ_ERR_SUCCESS.rawValue) || queuedWhileOffline else {
            return .library(operation: "publish to \(message.topic)", code: rc)
        }
        s.statistics.published += 1
        if message.qos != .atMostOnce {
            s.pendingPublishes[mid] = onComplete
            s.publishTopics[mid] = message.topic
        }
        if wakes { wakeNetworkThread() }
        return nil
    }

    /// On the first CONNACK: publishes what waited for it, in order, before anything published later
    /// (the state stays locked throughout) and before the handlers see the session's queued messages.
    func releaseHeldPublishes() {
        let outcomes = state.withLock { s -> [(Completion, Result<Void, MQTTError>)] in
            guard !s.everConnected else { return [] }
            s.everConnected = true
            return releaseWaiting(state: &s)
        }
        for (onComplete, result) in outcomes { onComplete(result) }
    }

    /// Hands waiting publishes to libmosquitto, in order, while the window has room; returns the
    /// completions that are already decided (QoS 0 sent, or refused by libmosquitto).
    func releaseWaiting(state s: inout State) -> [(Completion, Result<Void, MQTTError>)] {
        var outcomes: [(Completion, Result<Void, MQTTError>)] = []
        while s.everConnected, let next = s.waiting.first {
            let acknowledged = next.message.qos != .atMostOnce
            if acknowledged && s.pendingPublishes.count >= configuration.publishWindow { break }
            s.waiting.removeFirst()
            s.statistics.published -= 1  // counted again when handed over
            if let failure = publishLocked(next.message, onComplete: next.onComplete, state: &s) {
                outcomes.append((next.onComplete, .failure(failure)))
            } else if !acknowledged {
                outcomes.append((next.onComplete, .success(())))
            }
        }
        return outcomes
    }

    // MARK: Subscribing

    func register(filter: String, qos: MQTTQoS, options: MQTTSubscribeOptions, delivery: Delivery) throws(MQTTError) -> UInt32 {
        guard TopicFilter.isValidFilter(filter) else { throw .invalidTopic(filter) }
        let (id, connected) = try state.withLock { (s) throws(MQTTError) -> (UInt32, Bool) in
            guard s.phase != .stopped, s.phase != .stopping else { throw .shutDown }
            let id = s.nextSubscriptionId
            s.nextSubscriptionId += 1
            s.registrations[id] = Registration(filter: filter, qos: qos, options: options, delivery: delivery)
            return (id, s.connected)
        }
        if connected { sendSubscribe(id: id) }
        return id
    }

    /// Waits for the broker's SUBACK of a subscription sent while connected; returns at once otherwise.
    func awaitSubscribed(id: UInt32) async throws(MQTTError) {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Void, MQTTError>, Never>) in
            let waiting = state.withLock { s -> Bool in
                guard s.pendingSubacks.values.contains(id) else { return false }
                s.subackWaiters[id] = continuation
                return true
            }
            if !waiting { continuation.resume(returning: .success(())) }
        }
        if case .failure = result { unregister(id: id) }
        try result.get()
    }

    /// Waits, at most `timeout`, until the broker has answered every subscription sent so far
    /// (those sent on connecting too; not those sent meanwhile) or the connection is lost.
    func awaitPendingSubscriptions(timeout: Duration) async {
        let sent = state.withLock { Set($0.pendingSubacks.keys) }
        await waitWhileConnected(timeout: timeout) { !sent.isDisjoint(with: $0.pendingSubacks.keys) }
    }

    /// Checks `condition` on the state every few milliseconds while it holds and the connection is
    /// up, for at most `timeout`.
    private func waitWhileConnected(timeout: Duration, _ condition: (State) -> Bool) async {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline && state.withLock({ condition($0) && $0.connected }) {
            try? await Task.sleep(for: .milliseconds(2))
        }
    }

    /// Sends SUBSCRIBE for one registration, tagged with its subscription identifier.
    func sendSubscribe(id: UInt32) {
        guard let registration = state.withLock({ $0.localOnly.contains(id) ? nil : $0.registrations[id] }) else { return }
        var props = try? MQTTPropertyList.subscription(identifier: id)
        defer { props?.free() }
        state.withLock { s in
            var mid: Int32 = 0
            let rc = mosquitto_subscribe_v5(
                handle, &mid, registration.filter, registration.qos.rawValue, registration.options.rawValue, props?.list)
            if rc == Int32(MOSQ_ERR_SUCCESS.rawValue) {
                s.pendingSubacks[mid] = id
                wakeNetworkThread()
            } else {
                logger.warning(
                    "subscribe failed", metadata: ["mqtt.filter": "\(registration.filter)", "mqtt.error": "\(String(cString: mosquitto_strerror(rc)))"])
            }
        }
    }

    func unregister(id: UInt32) {
        let removed = state.withLock { $0.registrations.removeValue(forKey: id) }
        guard let removed else { return }
        let remaining = state.withLock { s -> UInt32? in
            let remaining = s.registrations.first { $0.value.filter == removed.filter }?.key
            s.successors[id] = remaining  // until the broker has the new identifier
            return remaining
        }
        if let remaining, isConnected {
            sendSubscribe(id: remaining)  // the broker's one subscription for the filter carried the removed identifier
        } else if isConnected {
            _ = mosquitto_unsubscribe_v5(handle, nil, removed.filter, nil)
            wakeNetworkThread()
        }
        if case .stream(let continuation) = removed.delivery { continuation.finish() }
    }

    // MARK: Shutting down

    /// Waits, at most `timeout`, until the broker has acknowledged every publish while connected.
    func drain(timeout: Duration) async {
        await waitWhileConnected(timeout: timeout) { !($0.pendingPublishes.isEmpty && $0.waiting.isEmpty) }
    }

    func shutdown(flushTimeout: Duration, sendWill: Bool, sessionExpiry: UInt32? = nil) async {
        let wasRunning = state.withLock { s -> Bool in
            guard s.phase == .running else { return false }
            return true
        }
        if wasRunning && !sendWill { await drain(timeout: flushTimeout) }
        let reason = sendWill ? Int32(MQTT_RC_DISCONNECT_WITH_WILL_MSG.rawValue) : Int32(MQTT_RC_NORMAL_DISCONNECTION.rawValue)
        let proceed = state.withLock { s -> Bool in
            guard s.phase == .running || s.phase == .idle else { return false }
            s.phase = .stopping
            if wasRunning { s.disconnectRequest = DisconnectRequest(reason: reason, sessionExpiry: sessionExpiry) }
            return true
        }
        guard proceed else { return }
        if wasRunning {
            // The network thread sends DISCONNECT (see `sendRequestedDisconnect`); wait for it to exit.
            wakeNetworkThread()
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let done = state.withLock { s -> Bool in
                    if s.loopDone { return true }
                    s.loopFinished = continuation
                    return false
                }
                if done { continuation.resume() }
            }
        }
        let (publishes, waiters, connectWaiters, registrations) = state.withLock { s in
            s.phase = .stopped
            s.connected = false
            defer {
                s.pendingPublishes = [:]
                s.waiting = []
                s.subackWaiters = [:]
                s.connectWaiters = [:]
                s.registrations = [:]
            }
            return (
                Array(s.pendingPublishes.values) + s.waiting.map(\.onComplete), Array(s.subackWaiters.values), Array(s.connectWaiters.values),
                Array(s.registrations.values)
            )
        }
        publishes.forEach { $0(.failure(.shutDown)) }
        waiters.forEach { $0.resume(returning: .failure(.shutDown)) }
        connectWaiters.forEach { $0.resume(returning: .failure(.shutDown)) }
        for registration in registrations {
            if case .stream(let continuation) = registration.delivery { continuation.finish() }
        }
    }

    /// Frees the libmosquitto handle once the network thread is gone.
    func destroy() {
        let threadRunning = state.withLock { s -> Bool in
            if s.phase == .running {
                s.phase = .stopping
                s.disconnectRequest = DisconnectRequest(reason: Int32(MQTT_RC_NORMAL_DISCONNECTION.rawValue), sessionExpiry: nil)
            }
            return s.threadStarted && !s.loopDone
        }
        if threadRunning {
            wakeNetworkThread()
            while !state.withLock({ $0.loopDone }) { Thread.sleep(forTimeInterval: 0.005) }
        }
        mosquitto_destroy(handle)
        close(wakePipe.read)
        close(wakePipe.write)
    }
}
