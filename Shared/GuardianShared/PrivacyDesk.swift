import Foundation
import GRDB
import Logging
import MQTT
import Synchronization

/// Where one service instance answers privacy requests (`guardian/privacy/requests/+`): it checks
/// who asks, erases or exports what its `PrivacyParticipant` holds about the device, clears the
/// retained topics about it, leaves a tombstone so that messages queued before the request are
/// dropped, and answers with a receipt. It also prunes the store by age (`RetentionPolicy`).
///
/// Every instance subscribes plainly (never `$share`): each replica has its own store. A sharded
/// service erases on every shard but answers only from the shard that owns the device.
public final class PrivacyDesk: Sendable {
    /// The user that may ask about any device.
    public static let administrator = "admin"

    let runtime: BusRuntime
    let store: ServiceStore
    let clock: ServiceClock
    let sharded: Bool
    let retention: RetentionPolicy
    let tombstones: Tombstones
    private let participantSlot: Mutex<(any PrivacyParticipant)?> = Mutex(nil)
    /// Which devices a sharded service owns now, when it follows a layout other than its own
    /// `GUARDIAN_SHARD` (`ShardHandoff.owns`).
    private let ownerSlot: Mutex<(@Sendable (String) -> Bool)?> = Mutex(nil)
    var participant: (any PrivacyParticipant)? { participantSlot.withLock { $0 } }
    private let families = Mutex(FamilyDirectory())
    /// Requests that arrived before the retained families did (a restart's queued requests), by
    /// requester; decided once the families are known.
    private let waiting = Mutex<[(requester: String, request: PrivacyRequest)]?>([])

    /// `sharded`: the service owns devices by `GUARDIAN_SHARD` (geofence, timeline, command-router).
    public init(runtime: BusRuntime, store: ServiceStore, kinds: [RetentionPolicy.Kind], sharded: Bool, clock: ServiceClock = .system) throws {
        self.runtime = runtime
        self.store = store
        self.clock = clock
        self.sharded = sharded
        retention = try RetentionPolicy(service: runtime.service, kinds: kinds, settings: runtime.config.settings)
        tombstones = try Tombstones(store: store, lifetime: Double(runtime.config.sessionExpirySeconds))
    }

    /// Adds the desk's tables (tombstones) to a service's migrations.
    public static func register(in migrator: inout DatabaseMigrator) {
        Tombstones.register(in: &migrator)
    }

    /// Whether a message about `deviceId` stamped `ts` predates an erase of the device (it was
    /// queued before the request): the service then drops it. Cheap when nothing was erased.
    /// `ts` is read only when the device has a tombstone; a message without one is not dropped.
    public func isErased(_ deviceId: String, at ts: @autoclosure () -> Timestamp?) -> Bool {
        guard let erasedAt = tombstones.erasedAt(deviceId), let ts = ts(), ts <= erasedAt else { return false }
        runtime.counters.increment("droppedErased")
        return true
    }

    /// Subscribes to families and requests for `participant` (before the runtime connects).
    public func open(for participant: any PrivacyParticipant) async throws {
        participantSlot.withLock { $0 = participant }
        let topics = runtime.topics
        // Families: plain, with the retained ones at every subscription (they live only in memory).
        try await runtime.client.subscribe(topics.families) { [self] message in handleFamily(message) }
        // A barrier of our own, published after subscribing: it comes back after the retained
        // families, so requests queued for this session while it was away wait for them.
        let barrier = "\(topics.presence(runtime.service, runtime.config.instanceId))/privacy-barrier"
        let token = Data(UUID().uuidString.utf8)
        try await runtime.client.subscribe(barrier) { [self] message in
            if message.payload == token { familiesKnown() }
        }
        try await runtime.client.subscribe(topics.privacyRequests) { [self] message in handleRequest(message) }
        runtime.client.publish(MQTTOutgoing(topic: barrier, payload: token)) { _ in }
        Task { [self] in
            try? await Task.sleep(for: .seconds(30))
            if waiting.withLock({ $0 != nil }) {
                runtime.logger.warning("privacy barrier did not come back; deciding with the families known")
                familiesKnown()
            }
        }
    }

    /// Answers for the devices `owns` says this instance owns (instead of its `GUARDIAN_SHARD`).
    public func answer(for owns: @escaping @Sendable (String) -> Bool) {
        ownerSlot.withLock { $0 = owns }
    }

    /// Prunes by age every sweep interval (and once at start), until cancelled.
    public func runSweeping() async {
        while !Task.isCancelled {
            sweep()
            try? await Task.sleep(for: .seconds(retention.sweepInterval))
        }
    }

    /// One pruning sweep: every kind older than its lifetime, and expired tombstones.
    public func sweep() {
        guard let participant else { return }
        let now = clock.now()
        do {
            let pruned = try store.write { db in
                var pruned = try participant.prune(olderThan: retention.cutoffs(at: now), now: now, in: db)
                pruned["tombstones"] = try tombstones.expire(now: now, in: db)
                return pruned.filter { $0.value > 0 }
            }
            runtime.counters.increment("retentionSweeps")
            for (kind, count) in pruned { runtime.counters.increment("pruned.\(kind)", by: count) }
            if !pruned.isEmpty {
                try store.truncateLog()  // the pruned rows' old pages leave the write-ahead log too
                runtime.logger.info("pruned old data", metadata: [LogKey.count: "\(pruned.values.reduce(0, +))", LogKey.reason: "\(pruned)"])
            }
        } catch {
            runtime.logger.error("cannot prune", metadata: [LogKey.error: "\(error)"])
        }
    }

    // MARK: Requests (on the network thread)

    func handleFamily(_ message: MQTTMessage) {
        guard let levels = runtime.topics.levels(of: message.topic), levels.count == 2, Identifier.isValid(levels[1]) else { return }
        do {
            let family = message.payload.isEmpty ? nil : try JSONDecoder().decodePayload(Family.self, from: message.payload)
            families.withLock { $0.set(family, id: String(levels[1])) }
        } catch {
            // Another service that owns families reports it; here it only means no authority.
            runtime.logger.debug("ignoring an invalid family", metadata: [LogKey.topic: "\(message.topic)"])
        }
    }

    private func familiesKnown() {
        guard let requests = waiting.withLock({ w -> [(requester: String, request: PrivacyRequest)]? in defer { w = nil }; return w }) else { return }
        for (requester, request) in requests { decide(request, requester: requester) }
    }

    func handleRequest(_ message: MQTTMessage) {
        guard let levels = runtime.topics.levels(of: message.topic), levels.count == 3, Identifier.isValid(levels[2]) else {
            return runtime.reportError(topic: message.topic, reason: "requester id must match [A-Za-z0-9_-]{1,64}", payload: message.payload)
        }
        guard message.payload.count <= runtime.config.maxPayloadBytes else {
            return runtime.reportError(topic: message.topic, reason: "payload of \(message.payload.count) bytes exceeds the limit", payload: message.payload)
        }
        let requester = String(levels[2])
        let request: PrivacyRequest
        do {
            request = try JSONDecoder().decodePayload(PrivacyRequest.self, from: message.payload)
        } catch {
            return runtime.reportError(topic: message.topic, reason: ContractViolation.from(error).description, payload: message.payload)
        }
        let decidable = requester == request.deviceId || requester == Self.administrator
        let deferred = !decidable && waiting.withLock { w -> Bool in
            guard w != nil else { return false }
            w!.append((requester, request))
            return true
        }
        if !deferred { decide(request, requester: requester) }
    }

    /// Whether `requester` may ask about `deviceId`: the device itself, a parent of a family that
    /// lists it, or the administrator.
    func mayAsk(_ requester: String, about deviceId: String) -> Bool {
        requester == deviceId || requester == Self.administrator || families.withLock { $0.parents(of: deviceId).contains(requester) }
    }

    func decide(_ request: PrivacyRequest, requester: String) {
        let answers = !sharded || (ownerSlot.withLock { $0 }?(request.deviceId) ?? runtime.config.shard.owns(deviceId: request.deviceId))
        guard mayAsk(requester, about: request.deviceId) else {
            runtime.counters.increment("privacyRefused")
            runtime.logger.notice("privacy request refused", metadata: [LogKey.requester: "\(requester)", LogKey.deviceId: "\(request.deviceId)"])
            if answers {
                answer(request, requester: requester, status: .refused, reason: "\(requester) may not ask about \(request.deviceId): only the device, a parent of its family or \(Self.administrator) may")
            }
            return
        }
        switch request.action {
        case .forget:
            do {
                let erased = try forget(request.deviceId)
                runtime.counters.increment("privacyErased")
                if answers { answer(request, requester: requester, status: .done, erased: erased) }
            } catch {
                runtime.logger.error("cannot erase a device", metadata: [LogKey.deviceId: "\(request.deviceId)", LogKey.error: "\(error)"])
                if answers { answer(request, requester: requester, status: .refused, reason: "cannot erase: \(error)") }
            }
        case .export:
            guard answers else { return }
            do {
                try export(request, requester: requester)
                runtime.counters.increment("privacyExported")
                answer(request, requester: requester, status: .done)
            } catch {
                runtime.logger.error("cannot export a device", metadata: [LogKey.deviceId: "\(request.deviceId)", LogKey.error: "\(error)"])
                answer(request, requester: requester, status: .refused, reason: "cannot export: \(error)")
            }
        }
    }

    private func answer(_ request: PrivacyRequest, requester: String, status: PrivacyReceipt.Status, reason: String? = nil, erased: [String: Int]? = nil) {
        let receipt = PrivacyReceipt(
            requestId: request.id, action: request.action, deviceId: request.deviceId, ts: clock.now(), status: status, reason: reason, erased: erased)
        let topic = runtime.topics.privacyReceipt(requester, request.id, runtime.service, runtime.config.instanceId)
        runtime.client.publish(MQTTOutgoing(topic: topic, payload: GuardianJSON.encode(receipt))) { _ in }
    }
}
