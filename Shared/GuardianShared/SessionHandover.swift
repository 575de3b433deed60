import Foundation
import Logging
import MQTT
import Synchronization

/// Nothing waits at the broker for a replica that is gone (README "Scaling"), for a service that reads
/// through shared subscriptions (`$share/{service}/…`), where the broker goes on dealing a departed
/// member its share until the member's session expires.
///
/// - Every instance watches the presence of the others of its service (and shard).
/// - One that has said offline (its will, or a stop) for the grace period is handed over: the live
///   instance with the lowest id opens the departed one's session, handles what it holds with the
///   service's own handlers (stored and acknowledged as the owner would), unsubscribes it, waits for
///   a barrier of its own (the broker delivers a session's queue in order, so everything queued before
///   has arrived), ends the session (expiry 0: the broker deletes it) and clears the departed one's
///   retained presence. If the owner comes back meanwhile (it takes its session over, or says online),
///   the handover stops at once and never reconnects.
/// - An instance stopping while a live one with a lower id stays leaves at once: it unsubscribes,
///   handles what its session still holds up to a barrier and ends the session. The lowest (or one
///   alone) keeps its session: when every replica stops at once, that session still collects what
///   is published meanwhile, for a restart (or for a successor with another id, which takes it over).
public final class SessionHandover: Sendable {
    struct Peer {
        var online: Bool
        var shard: String?
        /// When its presence last arrived, and when it was first seen offline.
        var seen: ContinuousClock.Instant
        var offlineSince: ContinuousClock.Instant?
    }

    /// `GUARDIAN_HANDOVER_GRACE`: seconds a replica may be offline before its session is handed over.
    public static let graceVariable = "GUARDIAN_HANDOVER_GRACE"
    /// The longest a handover or a leave waits for its barrier (a ceiling, not an expected time).
    static let barrierCeiling: Duration = .seconds(300)

    let service: String
    let instanceId: String
    let shard: String?
    let client: MQTTClient
    let topics: Topics
    let logger: Logger
    public let grace: Duration
    /// Presence older than this does not count as live (it refreshes every stats interval).
    let liveness: Duration
    private let peers = Mutex<[String: Peer]>([:])
    private let handingOver = Mutex<Set<String>>([])
    private let watch = Mutex<Task<Void, Never>?>(nil)
    private let active = Atomic<Bool>(false)
    private let ended = Atomic<Bool>(false)
    /// Handovers under way, by departed instance: closed (their sessions kept) when this instance stops.
    private let adoptedSessions = Mutex<[String: MQTTClient]>([:])

    init(service: String, config: GuardianConfig, client: MQTTClient, topics: Topics, logger: Logger) throws(ConfigurationError) {
        self.service = service
        instanceId = config.instanceId
        shard = config.shard.count > 1 ? config.shard.description : nil
        self.client = client
        self.topics = topics
        self.logger = logger
        grace = .milliseconds(Int64((try config.settings.number(Self.graceVariable, in: 0...86_400) ?? 10) * 1000))
        liveness = config.statsInterval * 3 + .seconds(5)
    }

    static func isShared(_ filter: String) -> Bool { filter.hasPrefix("$share/") }

    /// Starts watching the other instances, if the service subscribed through shared subscriptions
    /// (call after the service's subscriptions, before connecting).
    func begin() async throws(MQTTError) {
        guard client.subscribedFilters.contains(where: Self.isShared) else { return }
        active.store(true, ordering: .relaxed)
        try await client.subscribe(topics.presence(service, "+")) { [self] in observe($0) }
        watch.withLock {
            $0 = Task { [self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: .seconds(1))
                    if Task.isCancelled { break }
                    handOverDeparted()
                }
            }
        }
    }

    /// Stops watching and closes the handovers under way; their sessions stay for someone else.
    func end() {
        ended.store(true, ordering: .releasing)
        watch.withLock {
            $0?.cancel()
            $0 = nil
        }
        let open = adoptedSessions.withLock { sessions in
            defer { sessions = [:] }
            return Array(sessions.values)
        }
        for adopted in open { Task { await adopted.shutdown(flushTimeout: .zero) } }
    }

    private var isEnded: Bool { ended.load(ordering: .acquiring) }

    private func observe(_ message: MQTTMessage) {
        guard let id = message.topicLevels.last.map(String.init), id != instanceId else { return }
        let now = ContinuousClock.now
        guard !message.payload.isEmpty, let presence = try? JSONDecoder().decode(Presence.self, from: message.payload) else {
            peers.withLock { _ = $0.removeValue(forKey: id) }
            return
        }
        peers.withLock { peers in
            let online = presence.status == .online
            let offlineSince = online ? nil : (peers[id]?.offlineSince ?? now)
            peers[id] = Peer(online: online, shard: presence.shard, seen: now, offlineSince: offlineSince)
        }
    }

    private func isLive(_ peer: Peer, at now: ContinuousClock.Instant) -> Bool {
        peer.online && peer.shard == shard && now - peer.seen < liveness
    }

    /// True while another instance of the service (same shard) with a lower id is online and reporting.
    public var hasLowerLivePeer: Bool {
        let now = ContinuousClock.now
        return peers.withLock { $0.contains { $0.key < instanceId && isLive($0.value, at: now) } }
    }

    private func isBack(_ id: String) -> Bool { peers.withLock { $0[id]?.online ?? false } }

    /// Starts a handover of every peer offline for the grace period, if this instance is the live one
    /// with the lowest id (so two never race; if they do, the later one takes the session over and the
    /// earlier one stops).
    private func handOverDeparted() {
        let now = ContinuousClock.now
        let departed = peers.withLock { peers -> [String] in
            let live = peers.filter { isLive($0.value, at: now) }.map(\.key)
            guard live.allSatisfy({ $0 > instanceId }) else { return [] }
            return peers.filter { _, peer in
                guard !peer.online, peer.shard == shard, let since = peer.offlineSince else { return false }
                return now - since >= grace
            }.map(\.key).sorted()
        }
        for id in departed where handingOver.withLock({ $0.insert(id).inserted }) {
            Task { [self] in
                let done = await handOver(id)
                peers.withLock { peers in
                    guard peers[id]?.online == false else { return }  // it came back
                    if done { peers[id] = nil } else { peers[id]?.offlineSince = .now }  // else: again after another grace period
                }
                handingOver.withLock { _ = $0.remove(id) }
            }
        }
    }

    /// Takes over the session of `departed`, handles what it holds and ends it. Returns false when it
    /// must be tried again later (the broker did not answer).
    func handOver(_ departed: String) async -> Bool {
        var logger = logger
        logger[metadataKey: LogKey.peer] = "\(departed)"
        let adopted: MQTTClient
        do {
            adopted = try client.adoptingSession(of: "\(service)-\(departed)", handlersFor: Self.isShared, logger: logger)
            adoptedSessions.withLock { $0[departed] = adopted }
            if isEnded { throw MQTTError.shutDown }
            try await adopted.connect(timeout: .seconds(60))
        } catch {
            adoptedSessions.withLock { _ = $0.removeValue(forKey: departed) }
            logger.warning("cannot open the session of a departed replica", metadata: [LogKey.error: "\(error)"])
            return false
        }
        defer { adoptedSessions.withLock { _ = $0.removeValue(forKey: departed) } }
        let held = adopted.sessionPresent == true
        var drained = !held
        if held {
            logger.notice("handing over the session of a departed replica")
            adopted.withdraw(where: Self.isShared)
            drained = await barrier(on: adopted, topic: "\(topics.presence(service, departed))/handover/\(UUID().uuidString)") {
                !adopted.hasEnded && !self.isBack(departed) && !self.isEnded
            }
        }
        guard drained, !adopted.hasEnded, !isBack(departed), !isEnded else {
            logger.notice("handover stopped: the departed replica came back, or this one stops", metadata: ["mqtt.reason": "\(adopted.disconnectReason ?? 0)"])
            await adopted.shutdown(flushTimeout: .zero)
            return true
        }
        await adopted.shutdown(flushTimeout: .seconds(5), sessionExpiry: 0)
        client.publish(MQTTOutgoing(topic: topics.presence(service, departed), payload: Data(), retain: true)) { _ in }
        if held {
            logger.notice("handed over the session of a departed replica", metadata: [LogKey.count: "\(max(0, adopted.statistics.received - 1))"])
        }
        return true
    }

    /// Leaving while a live instance with a lower id stays: unsubscribes from the shared subscriptions and handles
    /// what the session still holds, up to a barrier. Returns true when the session may end (expiry 0).
    func leave() async -> Bool {
        end()
        guard active.load(ordering: .relaxed), client.isConnected, hasLowerLivePeer else { return false }
        client.withdraw(where: Self.isShared)
        let drained = await barrier(on: client, topic: "\(topics.presence(service, instanceId))/handover/\(UUID().uuidString)") {
            self.client.isConnected
        }
        if drained { logger.notice("left the shared subscriptions to the other replicas") }
        return drained
    }

    /// Subscribes `client` to `topic`, publishes to it and waits for it to come back: everything the
    /// session held before has then arrived (and been handled). False if `going` turns false first.
    private func barrier(on client: MQTTClient, topic: String, while going: @escaping @Sendable () -> Bool) async -> Bool {
        let arrived = Atomic<Bool>(false)
        do {
            try await client.subscribe(topic, qos: .atLeastOnce) { _ in arrived.store(true, ordering: .releasing) }
            try await client.publish(MQTTOutgoing(topic: topic, payload: Data("handover".utf8)))
        } catch {
            logger.warning("handover barrier failed", metadata: [LogKey.error: "\(error)"])
            return false
        }
        let deadline = ContinuousClock.now + Self.barrierCeiling
        while !arrived.load(ordering: .acquiring) && going() && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        return arrived.load(ordering: .acquiring)
    }
}
