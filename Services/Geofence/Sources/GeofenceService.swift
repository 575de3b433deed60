import Foundation
import GuardianShared
import Logging
import MQTT
import ServiceLifecycle
import Synchronization

/// The geofence service: server-side danger zones for every device it owns (`GUARDIAN_SHARD`),
/// phone transitions passed through, and the nearest zones pushed to OwnTracks phones.
public final class GeofenceService: Service, Sendable {
    public static let name = "geofence"

    struct State {
        var zones = ZoneCatalog()
        var devices: [String: DeviceVisits] = [:]
    }

    let runtime: BusRuntime
    let store: GeofenceStore
    let outbox: DurableOutbox
    let tracker: VisitTracker
    let state = Mutex(State())
    let privacy: PrivacyDesk
    let handoff: ShardHandoff

    /// What geofence keeps: each device's last position and open visits, forgotten after this long without a fix.
    static let retainedKinds = [RetentionPolicy.Kind("visits", days: 30)]

    public init(config: GuardianConfig, logger: Logger, clock: ServiceClock = .system) throws {
        runtime = try BusRuntime(service: Self.name, config: config, logger: logger, coalescingPause: BusRuntime.pauseUnderLoad)
        store = try GeofenceStore(config: config, logger: runtime.logger)
        privacy = try PrivacyDesk(runtime: runtime, store: store.store, kinds: Self.retainedKinds, sharded: true, clock: clock)
        outbox = DurableOutbox(store: store.store, client: runtime.client, logger: runtime.logger)
        handoff = ShardHandoff(runtime: runtime, store: store.store, inBursts: true)
        tracker = VisitTracker(settings: try GeofenceSettings(settings: config.settings))
    }

    public var counters: Counters { runtime.counters }

    public func run() async throws {
        let zones = try store.loadZones()
        let devices = try store.loadDevices()
        state.withLock { s in
            for (id, zone) in zones { s.zones.upsert(id: id, zone: zone) }
            s.devices = devices
        }
        runtime.counters.set("zones", to: zones.count)
        try outbox.replay()

        let topics = runtime.topics
        // Zones: a plain subscription (every shard needs all of them); retained ones only when the
        // subscription is new, since the store already holds what an existing session has seen.
        try await runtime.client.subscribe(
            "\(topics.prefix)/zones/+", options: MQTTSubscribeOptions(retainHandling: 1)
        ) { [self] in handleZone($0) }
        try await runtime.subscribe(topics.events(kind: .location), committingTo: store.store) { [self] in handleLocation($0) }
        try await runtime.subscribe(topics.events(kind: .transition), committingTo: store.store) { [self] in handleTransition($0) }
        try await privacy.open(for: self)
        try await handoff.open(for: self)
        privacy.answer(for: { [handoff] in handoff.owns($0) })
        try await runtime.start()

        await withTaskGroup(of: Void.self) { group in
            group.addTask { [outbox] in await outbox.runFlushing() }
            group.addTask { [privacy] in await privacy.runSweeping() }
            await runtime.runUntilShutdown()
            group.cancelAll()
        }
        await runtime.stop()
        outbox.flush()
    }

    /// Drops the connection as a crash would (for restart tests).
    public func crash() async { await runtime.crash() }

    // MARK: Handlers (on the MQTT network thread, one message at a time)

    func handleZone(_ message: MQTTMessage) {
        guard let levels = runtime.topics.levels(of: message.topic), levels.count == 2, Identifier.isValid(levels[1]) else {
            return runtime.reportError(topic: message.topic, reason: "zone id must match [A-Za-z0-9_-]{1,64}", payload: message.payload)
        }
        let zoneId = String(levels[1])
        var zone: DangerZone?
        if !message.payload.isEmpty {
            do {
                zone = try JSONDecoder().decodePayload(DangerZone.self, from: message.payload)
            } catch {
                return runtime.reportError(topic: message.topic, reason: ContractViolation.from(error).description, payload: message.payload)
            }
        }
        state.withLock { s in
            var next = s
            var events: [MQTTOutgoing] = []
            if let zone {
                next.zones.upsert(id: zoneId, zone: zone)
            } else if let removed = next.zones.remove(id: zoneId) {
                for (deviceId, var visits) in next.devices where handoff.owns(deviceId) {
                    guard let step = tracker.zoneRemoved(zoneId, zone: removed, state: &visits) else { continue }
                    next.devices[deviceId] = visits
                    events.append(geofenceMessage(step, zone: removed, deviceId: deviceId, ts: .now(), fix: visits.lastPosition, accuracy: nil, source: .server))
                }
            }
            let changed = next.devices.filter { s.devices[$0.key] != $0.value }
            do {
                let staged = try store.store.write { db in
                    try store.saveZone(zone, id: zoneId, in: db)
                    for (deviceId, visits) in changed { try store.save(visits, deviceId: deviceId, in: db) }
                    return try events.map { try outbox.stage($0, in: db) }
                }
                s = next
                outbox.send(staged)
                runtime.counters.set("zones", to: s.zones.count)
            } catch {
                runtime.logger.error("cannot store zone", metadata: [LogKey.error: "\(error)"])
                runtime.reportError(topic: message.topic, reason: "not stored: \(error)", payload: message.payload)
            }
        }
    }

    func handleLocation(_ message: MQTTMessage) {
        guard let (deviceId, event) = decodeEvent(message, as: Location.self, replay: { [self] in handleLocation($0) }) else { return }
        let fix = event.body
        state.withLock { s in
            var visits = s.devices[deviceId] ?? DeviceVisits()
            switch tracker.evaluate(fix, at: event.ts, state: &visits, zones: s.zones) {
            case .inaccurate:
                runtime.counters.increment("ignoredInaccurate")
            case .outOfOrder:
                runtime.counters.increment("ignoredOutOfOrder")
            case .accepted(let steps):
                runtime.counters.increment("fixes")
                var messages = steps.compactMap { step -> MQTTOutgoing? in
                    guard let zone = s.zones[step.zoneId] ?? (step.type == .exit ? DangerZone(name: step.zoneId, lat: fix.lat, lon: fix.lon) : nil)
                    else { return nil }
                    return geofenceMessage(step, zone: zone, deviceId: deviceId, ts: event.ts, fix: (fix.lat, fix.lon), accuracy: fix.acc, source: .server)
                }
                if let origin = fix.ownTracks, let command = waypointsIfMoved(fix: fix, state: &visits, zones: s.zones) {
                    messages.append(MQTTOutgoing(topic: origin.commandTopic, payload: GuardianJSON.encode(command)))
                }
                commit(deviceId: deviceId, visits: visits, messages: messages, into: &s, topic: message.topic, payload: message.payload)
            }
        }
    }

    func handleTransition(_ message: MQTTMessage) { handleTransition(message, heldBack: false) }

    /// `heldBack`: replayed after the device's state arrived from another shard, which drops the
    /// transitions that shard handled already.
    private func handleTransition(_ message: MQTTMessage, heldBack: Bool) {
        guard let (deviceId, event) = decodeEvent(message, as: PhoneTransition.self, replay: { [self] in handleTransition($0, heldBack: true) })
        else { return }
        let transition = event.body
        state.withLock { s in
            guard let zoneId = transition.rid, let zone = s.zones[zoneId] else {
                runtime.counters.increment("unknownRegions")
                return
            }
            var visits = s.devices[deviceId] ?? DeviceVisits()
            if heldBack, let last = visits.lastTransition, event.ts <= last {
                runtime.counters.increment("ignoredHandledElsewhere")
                return
            }
            visits.lastTransition = max(visits.lastTransition ?? event.ts, event.ts)
            let distance = GeoMath.distance(latitude1: transition.lat, longitude1: transition.lon, latitude2: zone.lat, longitude2: zone.lon)
            let step: VisitStep
            switch transition.event {
            case .enter:
                if visits.visits[zoneId] == nil { visits.visits[zoneId] = DeviceVisits.Visit(enteredAt: event.ts, dwellReported: false) }
                step = VisitStep(type: .enter, zoneId: zoneId, distance: distance, dwellSeconds: 0)
            case .leave:
                let entered = visits.visits.removeValue(forKey: zoneId)?.enteredAt
                let dwell = entered.map { max(0, Double(event.ts.milliseconds - $0.milliseconds) / 1000) } ?? 0
                step = VisitStep(type: .exit, zoneId: zoneId, distance: distance, dwellSeconds: dwell)
            }
            let outgoing = geofenceMessage(
                step, zone: zone, deviceId: deviceId, ts: event.ts, fix: (transition.lat, transition.lon), accuracy: transition.acc, source: .device)
            commit(deviceId: deviceId, visits: visits, messages: [outgoing], into: &s, topic: message.topic, payload: message.payload)
        }
    }

    // MARK: Helpers

    /// Reads `guardian/events/{deviceId}/{kind}` for a device this shard owns and holds state
    /// about (else `ShardHandoff` may hold the message back and `replay` it).
    private func decodeEvent<Body: EventBody>(_ message: MQTTMessage, as: Body.Type, replay: @escaping ShardHandoff.Replay)
        -> (String, DeviceEvent<Body>)?
    {
        guard let levels = runtime.topics.levels(of: message.topic), levels.count == 3, Identifier.isValid(levels[1]) else {
            runtime.reportError(topic: message.topic, reason: "not an event topic with a valid device id", payload: message.payload)
            return nil
        }
        let deviceId = String(levels[1])
        guard handoff.admits(deviceId, message, replay: replay) else { return nil }
        do {
            let event = try JSONDecoder().decodePayload(DeviceEvent<Body>.self, from: message.payload)
            guard event.deviceId == deviceId else {
                runtime.reportError(topic: message.topic, reason: "deviceId \(event.deviceId) does not match the topic", payload: message.payload)
                return nil
            }
            guard !privacy.isErased(deviceId, at: event.ts) else { return nil }
            return (deviceId, event)
        } catch {
            runtime.reportError(topic: message.topic, reason: ContractViolation.from(error).description, payload: message.payload)
            return nil
        }
    }

    /// Stores the device's new state with the messages it produced, then publishes them.
    private func commit(deviceId: String, visits: DeviceVisits, messages: [MQTTOutgoing], into s: inout State, topic: String, payload: Data) {
        var visits = visits
        guard !messages.isEmpty || visits.needsSaving(comparedTo: s.devices[deviceId]) else {
            s.devices[deviceId] = visits
            return
        }
        visits.savedFix = visits.lastFix
        do {
            let staged = try store.store.write { db in
                try store.save(visits, deviceId: deviceId, in: db)
                return try messages.map { try outbox.stage($0, in: db) }
            }
            s.devices[deviceId] = visits
            outbox.send(staged)
            for message in messages where message.topic.hasPrefix("\(runtime.topics.prefix)/geofence/") {
                runtime.counters.increment("events")
            }
        } catch {
            runtime.logger.error("cannot store device state", metadata: [LogKey.deviceId: "\(deviceId)", LogKey.error: "\(error)"])
            runtime.reportError(topic: topic, reason: "not stored: \(error)", payload: payload)
        }
    }

    private func geofenceMessage(
        _ step: VisitStep, zone: DangerZone, deviceId: String, ts: Timestamp, fix: (lat: Double, lon: Double)?, accuracy: Double?,
        source: GeofenceEvent.Source
    ) -> MQTTOutgoing {
        let event = GeofenceEvent(
            id: GeofenceEvent.makeId(deviceId: deviceId, zoneId: step.zoneId, type: step.type, ts: ts, source: source), ts: ts,
            deviceId: deviceId, type: step.type, zoneId: step.zoneId, zoneName: zone.name, merchant: zone.merchant,
            distance: step.distance.isFinite ? (step.distance * 10).rounded() / 10 : 0, dwellSeconds: (step.dwellSeconds * 1000).rounded() / 1000,
            location: GeofenceEvent.Fix(lat: fix?.lat ?? zone.lat, lon: fix?.lon ?? zone.lon, acc: accuracy), source: source)
        return MQTTOutgoing(topic: "\(runtime.topics.prefix)/geofence/\(deviceId)", payload: GuardianJSON.encode(event))
    }

    /// The phone's nearest zones, when it has moved far enough from where they were last computed
    /// and they changed.
    private func waypointsIfMoved(fix: Location, state: inout DeviceVisits, zones: ZoneCatalog) -> WaypointCommand? {
        let settings = tracker.settings
        if let center = state.waypointCenter,
            GeoMath.distance(latitude1: center.lat, longitude1: center.lon, latitude2: fix.lat, longitude2: fix.lon) < settings.waypointRefreshMeters
        {
            return nil
        }
        state.waypointCenter = (fix.lat, fix.lon)
        let nearest = zones.nearest(latitude: fix.lat, longitude: fix.lon, limit: settings.waypointCount)
        let ids = nearest.map(\.id)
        guard ids != state.waypointZones else { return nil }
        state.waypointZones = ids
        runtime.counters.increment("waypointPushes")
        return WaypointCommand(zones: nearest.map { ($0.id, $0.zone) })
    }
}
