import Foundation
import GRDB
import GuardianShared
import Logging
import MQTT
import ServiceLifecycle
import Synchronization

/// The timeline service: motion and location events (and whether the phone charges, from its
/// `state` events) of the devices it owns (`GUARDIAN_SHARD`)
/// become time slots on request, labelled by each device's SVM, published per local day, and
/// corrected by the user's feedback (the model retrains shortly after, then the days are republished).
public final class TimelineService: Service, Sendable {
    public static let name = "timeline"

    let runtime: BusRuntime
    let store: TimelineStore
    let outbox: DurableOutbox
    let generator = TimelineGenerator()
    /// One device's work at a time, whatever thread it comes from (handlers or debounced retraining).
    let work = Mutex<[String: SlotClassifier]>([:])
    let pendingRetrains = Mutex<[String: Task<Void, Never>]>([:])
    let retrainDelay: Duration
    let privacy: PrivacyDesk
    let handoff: ShardHandoff

    /// What the timeline keeps: raw motion and location events, the corrections it learns from,
    /// and each device's timeline (slots and model), forgotten after the device has been silent this long.
    static let retainedKinds = [
        RetentionPolicy.Kind("events", days: 30), RetentionPolicy.Kind("corrections", days: 365), RetentionPolicy.Kind("timelines", days: 365),
    ]

    public init(config: GuardianConfig, logger: Logger, clock: ServiceClock = .system) throws {
        runtime = try BusRuntime(service: Self.name, config: config, logger: logger)
        store = try TimelineStore(config: config, logger: runtime.logger)
        outbox = DurableOutbox(store: store.store, client: runtime.client, logger: runtime.logger)
        privacy = try PrivacyDesk(runtime: runtime, store: store.store, kinds: Self.retainedKinds, sharded: true, clock: clock)
        handoff = ShardHandoff(runtime: runtime, store: store.store, inBursts: false)
        retrainDelay = try TimelineSettings(settings: config.settings).retrainDelay
    }

    public var counters: Counters { runtime.counters }

    public func run() async throws {
        try outbox.replay()
        let topics = runtime.topics
        try await runtime.client.subscribe(topics.events(kind: .profile)) { [self] in handleProfile($0) }
        try await runtime.client.subscribe(topics.events(kind: .location)) { [self] in handleLocation($0) }
        try await runtime.client.subscribe(topics.events(kind: .motion)) { [self] in handleMotion($0) }
        try await runtime.client.subscribe(topics.events(kind: .state)) { [self] in handleState($0) }
        try await runtime.client.subscribe("\(topics.prefix)/timeline/+/generate") { [self] in handleGenerate($0) }
        try await runtime.client.subscribe("\(topics.prefix)/timeline/+/feedback") { [self] in handleFeedback($0) }
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
        pendingRetrains.withLock { tasks in tasks.values.forEach { $0.cancel() } }
        await runtime.stop()
        outbox.flush()
    }

    // MARK: Events

    func handleLocation(_ message: MQTTMessage) {
        guard let event: DeviceEvent<Location> = decodeEvent(message, replay: { [self] in handleLocation($0) }) else { return }
        record { try store.addLocation(event.deviceId, ts: event.ts.milliseconds, point: GeoPoint(lat: event.body.lat, lon: event.body.lon)) }
    }

    func handleMotion(_ message: MQTTMessage) {
        guard let event: DeviceEvent<Motion> = decodeEvent(message, replay: { [self] in handleMotion($0) }) else { return }
        guard let activity = MotionActivity(rawValue: event.body.activity.rawValue) else { return }
        record { try store.addMotion(event.deviceId, ts: event.ts.milliseconds, activity: activity) }
    }

    /// Keeps whether the phone charges (a state saying nothing of the battery, or `unknown`, is ignored).
    func handleState(_ message: MQTTMessage) {
        guard let event: DeviceEvent<DeviceState> = decodeEvent(message, replay: { [self] in handleState($0) }) else { return }
        guard let charging = event.body.batteryState.flatMap(ChargeEvent.isCharging) else { return }
        record { try store.addCharge(event.deviceId, ts: event.ts.milliseconds, charging: charging) }
    }

    func handleProfile(_ message: MQTTMessage) {
        guard !message.payload.isEmpty else { return }  // a retained profile cleared (an erased device)
        guard let event: DeviceEvent<DeviceProfile> = decodeEvent(message, replay: { [self] in handleProfile($0) }) else { return }
        record { try store.setTimeZone(event.deviceId, identifier: event.body.timezone) }
    }

    private func record(_ body: () throws -> Void) {
        do {
            try body()
            runtime.counters.increment("events")
        } catch {
            runtime.logger.error("cannot store event", metadata: [LogKey.error: "\(error)"])
        }
    }

    // MARK: Generation

    func handleGenerate(_ message: MQTTMessage) {
        guard let deviceId = ownedDevice(message, replay: { [self] in handleGenerate($0) }) else { return }
        let request: GenerateRequest
        do {
            request = message.payload.isEmpty ? GenerateRequest() : try JSONDecoder().decodePayload(GenerateRequest.self, from: message.payload)
        } catch {
            return runtime.reportError(topic: message.topic, reason: ContractViolation.from(error).description, payload: message.payload)
        }
        do {
            try generate(deviceId, request: request)
        } catch {
            runtime.logger.error("generation failed", metadata: [LogKey.deviceId: "\(deviceId)", LogKey.error: "\(error)"])
            runtime.reportError(topic: message.topic, reason: "generation failed: \(error)", payload: message.payload)
        }
    }

    /// Generates new slots since the last generation (the last slot may be extended), labels them
    /// and publishes every local day that changed.
    func generate(_ deviceId: String, request: GenerateRequest) throws {
        try work.withLock { classifiers in
            let device = try store.device(deviceId)
            guard let latest = try store.latestEvent(deviceId) else { return }
            var generator = generator
            generator.timeZone = device.timeZone
            let until = min(request.to?.milliseconds ?? latest, latest)
            var update: TimelineUpdate?
            if let resume = device.state.resumeFrom, (device.dirtyFrom ?? .max) >= resume, (request.from?.milliseconds ?? .max) >= resume {
                let (motion, locations) = try store.events(deviceId, from: resume, until: until)
                update = generator.update(
                    device.state, motion: motion, locations: locations, charges: try store.charges(deviceId, until: until), until: until)
            }
            if update == nil {
                let (motion, locations) = try store.events(deviceId, from: nil, until: until)
                update = generator.rebuild(
                    motion: motion, locations: locations, charges: try store.charges(deviceId, until: until), until: until, previous: device.state)
                runtime.counters.increment("rebuilds")
            }
            guard let update else { return }
            let classifier = try classifierFor(deviceId, device: device, places: update.state.spans, cache: &classifiers)
            let labelled = classifier.label(update.state, from: update.changedFrom, timeZone: device.timeZone)
            let days = DayTimeline.days(of: labelled, timeZone: device.timeZone, from: update.changedFrom)
            try publish(days, deviceId: deviceId) { db in try store.save(deviceId, state: labelled, clearDirty: true, in: db) }
            runtime.counters.increment("generations")
        }
    }

    /// The device's model: cached, else stored, else trained on the standard day and its examples.
    private func classifierFor(_ deviceId: String, device: TimelineStore.Device, places: [SlotSpan], cache: inout [String: SlotClassifier]) throws
        -> SlotClassifier
    {
        if let cached = cache[deviceId] { return cached }
        if let data = device.model, let stored = try? SlotClassifier(serialized: data) {
            cache[deviceId] = stored
            return stored
        }
        let trained = try SlotClassifier.train(examples: try store.examples(deviceId), places: places, timeZone: device.timeZone)
        cache[deviceId] = trained
        try store.store.write { db in try store.save(deviceId, state: device.state, clearDirty: false, model: try trained.serialized(), in: db) }
        return trained
    }

    // MARK: Feedback

    func handleFeedback(_ message: MQTTMessage) {
        guard let deviceId = ownedDevice(message, replay: { [self] in handleFeedback($0) }) else { return }
        let feedback: TimelineFeedback
        do {
            feedback = try JSONDecoder().decodePayload(TimelineFeedback.self, from: message.payload)
            try apply(feedback, deviceId: deviceId)
        } catch {
            return runtime.reportError(topic: message.topic, reason: ContractViolation.from(error).description, payload: message.payload)
        }
        runtime.counters.increment("feedback")
        scheduleRetrain(deviceId)
    }

    func apply(_ feedback: TimelineFeedback, deviceId: String) throws {
        try work.withLock { _ in
            let device = try store.device(deviceId)
            var state = device.state
            // The person sees merged slots: a correction applies to every slot of the one they saw.
            let instant = feedback.start.milliseconds
            guard let (indices, span) = state.spans.mergedGroups().first(where: { $0.span.start <= instant && instant < max($0.span.end, $0.span.start + 1) }),
                  !span.slot.isGap
            else {
                throw ContractViolation(field: "start", "no slot at \(feedback.start.rfc3339)")
            }
            let example: LabelledSlot
            switch feedback.verdict {
            case .correct(let category):
                for index in indices {
                    state.slots[index].category = category
                    state.slots[index].confidence = 1
                    state.slots[index].edited = true
                }
                example = LabelledSlot(span, category: category)
            case .confirm:
                guard span.slot.category != .unknown else { throw ContractViolation(field: "vote", "the slot is unknown: send a category instead") }
                example = LabelledSlot(span, category: span.slot.category)
            }
            let days = DayTimeline.days(of: state, timeZone: device.timeZone, from: span.start, to: span.end)
            try publish(days, deviceId: deviceId) { db in
                try store.addExample(deviceId, example, in: db)
                try store.save(deviceId, state: state, clearDirty: false, in: db)
            }
        }
    }

    /// Retrains the device's model once feedback has been quiet for a moment, relabels and republishes.
    func scheduleRetrain(_ deviceId: String) {
        let task = Task { [self, retrainDelay] in
            try? await Task.sleep(for: retrainDelay)
            guard !Task.isCancelled else { return }
            do {
                try retrain(deviceId)
            } catch {
                runtime.logger.error("retraining failed", metadata: [LogKey.deviceId: "\(deviceId)", LogKey.error: "\(error)"])
            }
        }
        pendingRetrains.withLock { tasks in
            tasks[deviceId]?.cancel()
            tasks[deviceId] = task
        }
    }

    func retrain(_ deviceId: String) throws {
        try work.withLock { classifiers in
            guard try store.hasDevice(deviceId) else { return }  // erased meanwhile
            let device = try store.device(deviceId)
            let classifier = try SlotClassifier.train(examples: try store.examples(deviceId), places: device.state.spans, timeZone: device.timeZone)
            classifiers[deviceId] = classifier
            let relabelled = classifier.label(device.state, timeZone: device.timeZone)
            let changed = zip(device.state.spans, relabelled.slots).filter { $0.0.slot.category != $0.1.category }.map(\.0)
            let days = changed.flatMap { DayTimeline.days(of: relabelled, timeZone: device.timeZone, from: $0.start, to: $0.end) }
            try publish(days, deviceId: deviceId) { db in
                try store.save(deviceId, state: relabelled, clearDirty: false, model: try classifier.serialized(), in: db)
            }
            runtime.counters.increment("retrains")
        }
    }

    // MARK: Helpers

    /// Publishes days (retained, once per date) in the same transaction as `change`.
    private func publish(_ days: [DayTimeline], deviceId: String, with change: (GRDB.Database) throws -> Void) throws {
        let now = Timestamp.now()
        var seen = Set<String>()
        let messages = days.filter { seen.insert($0.date).inserted }.map { day in
            MQTTOutgoing(
                topic: "\(runtime.topics.prefix)/timeline/\(deviceId)/days/\(day.date)",
                payload: GuardianJSON.encode(PublishedDay(deviceId: deviceId, day: day, generatedAt: now)), retain: true)
        }
        let staged = try store.store.write { db in
            try change(db)
            return try messages.map { try outbox.stage($0, in: db) }
        }
        outbox.send(staged)
        runtime.counters.increment("daysPublished", by: staged.count)
    }

    /// The device of a message this shard handles now (see `ShardHandoff.admits`).
    private func ownedDevice(_ message: MQTTMessage, replay: @escaping ShardHandoff.Replay) -> String? {
        guard let levels = runtime.topics.levels(of: message.topic), levels.count == 3, Identifier.isValid(levels[1]) else {
            runtime.reportError(topic: message.topic, reason: "device id must match [A-Za-z0-9_-]{1,64}", payload: message.payload)
            return nil
        }
        let deviceId = String(levels[1])
        return handoff.admits(deviceId, message, replay: replay) ? deviceId : nil
    }

    private func decodeEvent<Body: EventBody>(_ message: MQTTMessage, replay: @escaping ShardHandoff.Replay) -> DeviceEvent<Body>? {
        guard let deviceId = ownedDevice(message, replay: replay) else { return nil }
        do {
            let event = try JSONDecoder().decodePayload(DeviceEvent<Body>.self, from: message.payload)
            guard event.deviceId == deviceId else { throw ContractViolation(field: "deviceId", "does not match the topic") }
            return privacy.isErased(deviceId, at: event.ts) ? nil : event
        } catch {
            runtime.reportError(topic: message.topic, reason: ContractViolation.from(error).description, payload: message.payload)
            return nil
        }
    }
}
