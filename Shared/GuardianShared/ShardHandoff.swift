import Foundation
import MQTT
import Synchronization

/// Moves devices between the instances of a sharded service (geofence, timeline, command-router) when
/// `GUARDIAN_SHARD` changes, over the bus and without losing or repeating an event.
///
/// The layout is that of the instance started last (`ShardLayout`). An instance that holds state
/// about a device it does not own under it publishes that state, retained, on
/// `guardian/services/{service}/{instanceId}/handoff/{deviceId}` and stops handling the device; the
/// owner takes it in and clears the message; seeing the clear, the old holder forgets the device.
/// Since every shard receives every event, the owner holds back the events of a device it has no
/// state about while a move may be under way (from its start, and from each layout change, until
/// every online peer follows the layout and has nothing left to hand off, or for `ceiling` at most),
/// then handles them after the state arrives (the service drops those the state already covers)
/// or, at the end of the wait, as a new device's.
///
/// Everything runs on the network thread, in the order the messages arrived.
public final class ShardHandoff: Sendable {
    /// The longest an owner holds back a device's events for state that may be on its way.
    public static let ceiling: Duration = .seconds(60)

    public typealias Replay = @Sendable (MQTTMessage) -> Void

    struct State {
        var layout = ShardLayout()
        /// Whether this instance's own presence came back: every retained presence was read.
        var peersKnown = false
        /// The layout count followed and the devices owned under it (nil: none).
        var count: Int
        var owned: Shard?
        var handedOffOnce = false
        /// Devices handed off whose owner has not yet taken them in.
        var pending: Set<String> = []
        /// When the wait for state on its way began; nil when none is expected.
        var waitingSince: ContinuousClock.Instant? = .now
        var held: [String: [(MQTTMessage, Replay)]] = [:]
        var heldOrder: [String] = []
    }

    let runtime: BusRuntime
    let store: ServiceStore
    let inBursts: Bool
    let ceiling: Duration
    private let state: Mutex<State>
    private let participantSlot: Mutex<(any ShardHandoffParticipant)?> = Mutex(nil)
    private var participant: (any ShardHandoffParticipant)? { participantSlot.withLock { $0 } }

    /// `inBursts`: the service reads its events through burst subscriptions (so that the
    /// hand-off's messages are handled in order with them).
    public init(runtime: BusRuntime, store: ServiceStore, inBursts: Bool, ceiling: Duration = ShardHandoff.ceiling) {
        self.runtime = runtime
        self.store = store
        self.inBursts = inBursts
        self.ceiling = ceiling
        let shard = runtime.config.shard
        state = Mutex(State(count: shard.count, owned: shard))
        publishStats(count: shard.count, owned: shard, pending: 0)
    }

    /// Subscribes to the service's presence and hand-offs for `participant` (before the runtime connects).
    public func open(for participant: any ShardHandoffParticipant) async throws {
        participantSlot.withLock { $0 = participant }
        let topics = runtime.topics
        for filter in [topics.presences(runtime.service), topics.handoffs(runtime.service)] {
            if inBursts {
                try await runtime.client.subscribeInBursts(filter) { [self] messages in messages.forEach(handle) }
            } else {
                try await runtime.client.subscribe(filter) { [self] message in handle(message) }
            }
        }
        scheduleCeiling()
    }

    /// Whether this instance owns `deviceId` under the layout it follows.
    public func owns(_ deviceId: String) -> Bool {
        state.withLock { $0.owned?.owns(deviceId: deviceId) ?? false }
    }

    /// The devices this instance owns under the layout it follows (nil: none).
    public var ownedShard: Shard? { state.withLock { $0.owned } }

    /// Whether to handle `message` about `deviceId` now: false when another shard owns the device,
    /// or when its state may be on its way; `replay` then gets the message once the state arrived
    /// or the wait ended.
    public func admits(_ deviceId: String, _ message: MQTTMessage, replay: @escaping Replay) -> Bool {
        let verdict = state.withLock { s -> Bool? in
            guard s.owned?.owns(deviceId: deviceId) == true else { return false }
            if s.held[deviceId] != nil {
                s.held[deviceId]!.append((message, replay))
                return false
            }
            return s.waitingSince == nil ? true : nil
        }
        if let verdict { return verdict }
        if (try? participant?.holdsState(of: deviceId)) == true { return true }
        state.withLock { s in
            if s.held[deviceId] == nil { s.heldOrder.append(deviceId) }
            s.held[deviceId, default: []].append((message, replay))
        }
        runtime.counters.increment("heldBack")
        return false
    }

    // MARK: Messages (on the network thread)

    func handle(_ message: MQTTMessage) {
        guard let levels = runtime.topics.levels(of: message.topic), levels.count >= 3 else { return }
        let instance = String(levels[2])
        if levels.count == 3 {
            handlePresence(message, instance: instance)
        } else if levels.count == 5, levels[3] == "handoff", Identifier.isValid(levels[4]) {
            handleHandoff(message, from: instance, deviceId: String(levels[4]))
        }
    }

    private func handlePresence(_ message: MQTTMessage, instance: String) {
        let presence = message.payload.isEmpty ? nil : try? JSONDecoder().decode(Presence.self, from: message.payload)
        state.withLock { s in
            if instance == runtime.config.instanceId {
                if presence?.startedAt == runtime.startedAt { s.peersKnown = true }
            } else {
                s.layout.peers[instance] = presence.map(ShardLayout.Member.init)
            }
        }
        evaluate()
    }

    private func handleHandoff(_ message: MQTTMessage, from holder: String, deviceId: String) {
        guard let participant else { return }
        if holder == runtime.config.instanceId {
            if message.payload.isEmpty { taken(deviceId, by: participant) }
            return
        }
        guard !message.payload.isEmpty, owns(deviceId) else { return }
        do {
            try participant.adopt(message.payload, deviceId: deviceId)
            runtime.counters.increment("adopted")
            runtime.logger.debug("device taken in from another shard", metadata: [LogKey.deviceId: "\(deviceId)", LogKey.instance: "\(holder)"])
        } catch {
            runtime.logger.error("cannot take in a device's state", metadata: [LogKey.deviceId: "\(deviceId)", LogKey.error: "\(error)"])
            return runtime.reportError(topic: message.topic, reason: "not taken in: \(error)", payload: message.payload)
        }
        runtime.client.publish(MQTTOutgoing(topic: message.topic, payload: Data(), retain: true)) { _ in }
        release(state.withLock { s in
            s.heldOrder.removeAll { $0 == deviceId }
            return s.held.removeValue(forKey: deviceId) ?? []
        })
    }

    /// The owner took the device in: forget it, unless this instance owns it again meanwhile.
    private func taken(_ deviceId: String, by participant: any ShardHandoffParticipant) {
        guard !owns(deviceId) else { return }
        do {
            if try participant.holdsState(of: deviceId) {
                try store.write { db in try participant.forget(deviceId: deviceId, in: db) }
                participant.forgotten(deviceId: deviceId)
                runtime.counters.increment("handedOff")
            }
        } catch {
            runtime.logger.error("cannot forget a device handed off", metadata: [LogKey.deviceId: "\(deviceId)", LogKey.error: "\(error)"])
            return
        }
        let (emptied, count, owned, pending) = state.withLock { s in
            (s.pending.remove(deviceId) != nil && s.pending.isEmpty, s.count, s.owned, s.pending.count)
        }
        publishStats(count: count, owned: owned, pending: pending)
        if emptied {
            runtime.logger.notice("every device handed off was taken in")
            runtime.publishPresence(.online)
        }
    }

    // MARK: Layout

    /// Follows the layout of the instance started last; hands off what this instance no longer
    /// owns; ends the wait for state once no more can come.
    private func evaluate() {
        let me = runtime.config.shard
        let changed = state.withLock { s -> Bool in
            guard s.peersKnown else { return false }
            let count = s.layout.count(me: (runtime.config.instanceId, ShardLayout.Member(shard: me, startedAt: runtime.startedAt, online: true)))
            guard count != s.count || !s.handedOffOnce else { return false }
            if count != s.count { s.waitingSince = .now }
            s.count = count
            s.owned = ShardLayout.owned(by: me, count: count)
            s.handedOffOnce = true
            return true
        }
        if changed {
            handOff()
            scheduleCeiling()
        }
        endWaitIfSettled()
    }

    /// Publishes the state of every device held and not owned, once each.
    private func handOff() {
        guard let participant else { return }
        let (owned, count) = state.withLock { ($0.owned, $0.count) }
        runtime.logger.notice("following a shard layout", metadata: [LogKey.shard: "\(owned?.description ?? "none of \(count)")"])
        var published = 0
        do {
            for deviceId in try participant.heldDevices() where owned?.owns(deviceId: deviceId) != true {
                guard state.withLock({ !$0.pending.contains(deviceId) }), let data = try participant.handoffState(of: deviceId) else { continue }
                let topic = runtime.topics.handoff(runtime.service, runtime.config.instanceId, deviceId)
                runtime.client.publish(MQTTOutgoing(topic: topic, payload: data, retain: true)) { [runtime] result in
                    if case .failure(let error) = result {
                        runtime.logger.error("a hand-off was refused", metadata: [LogKey.deviceId: "\(deviceId)", LogKey.error: "\(error)"])
                    }
                }
                state.withLock { _ = $0.pending.insert(deviceId) }
                published += 1
            }
        } catch {
            runtime.logger.error("cannot hand devices off", metadata: [LogKey.error: "\(error)"])
        }
        let pending = state.withLock { $0.pending.count }
        publishStats(count: count, owned: owned, pending: pending)
        if published > 0 { runtime.logger.notice("devices handed off", metadata: [LogKey.count: "\(published)"]) }
        runtime.publishPresence(.online)
    }

    private func endWaitIfSettled() {
        let released = state.withLock { s -> [(MQTTMessage, Replay)]? in
            guard s.peersKnown, let since = s.waitingSince else { return nil }
            guard s.layout.settled(at: s.count) || since.duration(to: .now) >= ceiling else { return nil }
            s.waitingSince = nil
            let held = s.heldOrder.flatMap { s.held[$0] ?? [] }
            s.held = [:]
            s.heldOrder = []
            return held
        }
        guard let released else { return }
        runtime.logger.info("no more device state on its way", metadata: [LogKey.count: "\(released.count)"])
        release(released)
    }

    private func release(_ messages: [(MQTTMessage, Replay)]) {
        for (message, replay) in messages { replay(message) }
    }

    /// Announces the instance again at the ceiling: its own presence coming back ends the wait.
    private func scheduleCeiling() {
        Task { [runtime, ceiling] in
            try? await Task.sleep(for: ceiling)
            runtime.publishPresence(.online)
        }
    }

    private func publishStats(count: Int, owned: Shard?, pending: Int) {
        runtime.counters.set(ShardLayout.followsStat, to: count)
        runtime.counters.set(ShardLayout.ownsNothingStat, to: owned == nil ? 1 : 0)
        runtime.counters.set(ShardLayout.pendingStat, to: pending)
        runtime.setRetired(owned == nil && pending == 0)
    }
}
