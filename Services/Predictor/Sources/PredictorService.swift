import Foundation
import GuardianShared
import Logging
import MQTT
import ServiceLifecycle
import Synchronization

/// The predictor service: on geofence `enter` and `dwell`, the six features from real context, a
/// prediction with the XGBoost model and, from the threshold, a nudge; on-demand requests over the
/// MQTT 5 response topic; model updates validated and swapped in without a restart.
public final class PredictorService: Service, Sendable {
    public static let name = "predictor"

    let runtime: BusRuntime
    let store: PredictorStore
    let outbox: DurableOutbox
    let threshold: Double
    let bundledDirectory: URL
    let active: Mutex<ActiveModel>
    let lastModelError = Mutex<String?>(nil)
    let context: Mutex<DeviceContext>
    let privacy: PrivacyDesk

    /// What the predictor keeps about devices: the latest budget (dropped when this old) and time zone.
    static let retainedKinds = [RetentionPolicy.Kind("budgets", days: 30)]

    public init(config: GuardianConfig, logger: Logger, clock: ServiceClock = .system) throws {
        runtime = try BusRuntime(service: Self.name, config: config, logger: logger)
        store = try PredictorStore(config: config, logger: runtime.logger)
        privacy = try PrivacyDesk(runtime: runtime, store: store.store, kinds: Self.retainedKinds, sharded: false, clock: clock)
        outbox = DurableOutbox(store: store.store, client: runtime.client, logger: runtime.logger)
        let settings = try PredictorSettings(settings: config.settings)
        threshold = settings.threshold
        bundledDirectory = settings.modelsDirectory
        context = Mutex(try store.loadContext())
        active = Mutex(try Self.startupModel(store: store, bundled: bundledDirectory, logger: runtime.logger))
    }

    /// The last model accepted from the topic wins over the bundled one, if it still validates.
    static func startupModel(store: PredictorStore, bundled: URL, logger: Logger) throws -> ActiveModel {
        if let message = try store.topicModel() {
            do {
                return ActiveModel(try ModelUpdate(message: message), source: .topic)
            } catch {
                logger.warning("stored topic model no longer validates; using the bundled one", metadata: [LogKey.error: "\(error)"])
            }
        }
        do {
            return try ActiveModel.bundled(directory: bundled)
        } catch {
            throw ConfigurationError(key: "GUARDIAN_MODELS_DIR", reason: "no valid bundled model under \(bundled.path): \(error)")
        }
    }

    public var counters: Counters { runtime.counters }

    /// The model in use: version and where it came from.
    var currentModel: ActiveModel { active.withLock { $0 } }

    public func run() async throws {
        try outbox.replay()
        let topics = runtime.topics
        let prefix = topics.prefix
        try await runtime.subscribe(Topics.shared(Self.name, "\(prefix)/geofence/+"), committingTo: store.store) { [self] in handleTrigger($0) }
        try await runtime.client.subscribe(Topics.shared(Self.name, "\(prefix)/predictor/requests")) { [self] in handleRequest($0) }
        try await runtime.client.subscribe(topics.events(kind: .budget)) { [self] in handleBudget($0) }
        try await runtime.client.subscribe(topics.events(kind: .profile)) { [self] in handleProfile($0) }
        try await runtime.client.subscribe("\(prefix)/zones/+") { [self] in handleZone($0) }
        try await runtime.client.subscribe("\(prefix)/models/purchase-predictor") { [self] in handleModel($0) }
        try await privacy.open(for: self)
        try await runtime.start()
        publishStatus()

        await withTaskGroup(of: Void.self) { group in
            group.addTask { [outbox] in await outbox.runFlushing() }
            group.addTask { [privacy] in await privacy.runSweeping() }
            await runtime.runUntilShutdown()
            group.cancelAll()
        }
        await runtime.stop()
        outbox.flush()
    }

    public func crash() async { await runtime.crash() }

    // MARK: Predictions

    func handleTrigger(_ message: MQTTMessage) {
        let event: GeofenceEvent
        do {
            event = try JSONDecoder().decodePayload(GeofenceEvent.self, from: message.payload)
            guard message.topic == "\(runtime.topics.prefix)/geofence/\(event.deviceId)" else {
                throw ContractViolation(field: "deviceId", "does not match the topic")
            }
        } catch {
            return runtime.reportError(topic: message.topic, reason: ContractViolation.from(error).description, payload: message.payload)
        }
        guard let trigger = Prediction.Trigger(rawValue: event.type.rawValue), !privacy.isErased(event.deviceId, at: event.ts) else { return }
        let prediction = predict(event, trigger: trigger)
        let payload = GuardianJSON.encode(prediction)
        var messages = [MQTTOutgoing(topic: "\(runtime.topics.prefix)/predictions/\(event.deviceId)", payload: payload)]
        if prediction.shouldNudge {
            messages.append(MQTTOutgoing(topic: "\(runtime.topics.prefix)/nudges/\(event.deviceId)", payload: payload))
        }
        do {
            let staged = try store.store.write { db in try messages.map { try outbox.stage($0, in: db) } }
            outbox.send(staged)
            runtime.counters.increment("predictions")
            if prediction.shouldNudge { runtime.counters.increment("nudges") }
        } catch {
            runtime.logger.error("cannot stage prediction", metadata: [LogKey.error: "\(error)"])
            runtime.reportError(topic: message.topic, reason: "not stored: \(error)", payload: message.payload)
        }
    }

    func predict(_ event: GeofenceEvent, trigger: Prediction.Trigger) -> Prediction {
        let (features, defaulted) = context.withLock { $0.features(for: event) }
        let model = currentModel
        let probability = (try? model.model.probability(features.vector)) ?? 0
        return Prediction(
            id: event.id, ts: event.ts, deviceId: event.deviceId, zoneId: event.zoneId, merchant: event.merchant, trigger: trigger,
            features: features, defaulted: defaulted, probability: probability, threshold: threshold, model: model.info)
    }

    func handleRequest(_ message: MQTTMessage) {
        let request: PredictionRequest
        do {
            request = try JSONDecoder().decodePayload(PredictionRequest.self, from: message.payload)
        } catch {
            return runtime.reportError(topic: message.topic, reason: ContractViolation.from(error).description, payload: message.payload)
        }
        guard let replyTopic = message.properties.responseTopic ?? request.replyTo else {
            return runtime.reportError(topic: message.topic, reason: "no response topic (MQTT 5) and no replyTo", payload: message.payload)
        }
        guard TopicFilter.isValidTopic(replyTopic) else {
            return runtime.reportError(topic: message.topic, reason: "response topic is not a valid topic", payload: message.payload)
        }
        let probability = (try? currentModel.model.probability(request.features.vector)) ?? 0
        let response = PredictionResponse(
            probability: probability, shouldNudge: probability >= threshold, riskLevel: RiskLevel(probability: probability), threshold: threshold)
        let properties = MQTTProperties(correlationData: message.properties.correlationData, contentType: "application/json")
        runtime.client.publish(MQTTOutgoing(topic: replyTopic, payload: GuardianJSON.encode(response), properties: properties)) { [runtime] result in
            if case .failure(let error) = result {
                runtime.logger.warning("cannot answer a prediction request", metadata: [LogKey.topic: "\(replyTopic)", LogKey.error: "\(error)"])
            }
        }
        runtime.counters.increment("requests")
    }

    // MARK: Context

    func handleBudget(_ message: MQTTMessage) {
        guard let event: DeviceEvent<Budget> = decodeEvent(message), !privacy.isErased(event.deviceId, at: event.ts) else { return }
        let newer = context.withLock { c -> Bool in
            if let known = c.budgets[event.deviceId], known.ts > event.ts { return false }
            c.budgets[event.deviceId] = (event.body.utilization, event.ts)
            return true
        }
        if newer { try? store.saveBudget(deviceId: event.deviceId, utilization: event.body.utilization, ts: event.ts) }
    }

    func handleProfile(_ message: MQTTMessage) {
        guard !message.payload.isEmpty else { return }  // a retained profile cleared (an erased device)
        guard let event: DeviceEvent<DeviceProfile> = decodeEvent(message) else { return }
        context.withLock { $0.timeZones[event.deviceId] = event.body.timeZone }
        try? store.saveTimeZone(deviceId: event.deviceId, identifier: event.body.timezone)
    }

    func handleZone(_ message: MQTTMessage) {
        guard let levels = runtime.topics.levels(of: message.topic), levels.count == 2, Identifier.isValid(levels[1]) else { return }
        let zoneId = String(levels[1])
        var rate: Double?
        if !message.payload.isEmpty {
            // Geofence reports bad zones; here a bad one only means no regret rate.
            guard let zone = try? JSONDecoder().decodePayload(DangerZone.self, from: message.payload) else { return }
            rate = zone.regretRate ?? zone.regretCount.map { min(1, Double($0) / 100) }
        }
        context.withLock { $0.regretRates[zoneId] = rate }
        try? store.saveRegretRate(zoneId: zoneId, rate: rate)
    }

    private func decodeEvent<Body: EventBody>(_ message: MQTTMessage) -> DeviceEvent<Body>? {
        do {
            let event = try JSONDecoder().decodePayload(DeviceEvent<Body>.self, from: message.payload)
            guard message.topic == runtime.topics.event(event.deviceId, Body.kind) else {
                throw ContractViolation(field: "deviceId", "does not match the topic")
            }
            return event
        } catch {
            runtime.reportError(topic: message.topic, reason: ContractViolation.from(error).description, payload: message.payload)
            return nil
        }
    }

    // MARK: Models

    func handleModel(_ message: MQTTMessage) {
        guard !message.payload.isEmpty else { return }
        do {
            let update = try ModelUpdate(message: message.payload)
            let current = currentModel
            if current.source == .topic && current.info.sha256 == update.sha256 && current.info.version == update.version { return }
            try store.saveTopicModel(message.payload, version: update.version)
            active.withLock { $0 = ActiveModel(update, source: .topic) }
            lastModelError.withLock { $0 = nil }
            runtime.counters.increment("modelSwaps")
            runtime.logger.notice("model swapped in", metadata: ["model.version": "\(update.version)", "model.sha256": "\(update.sha256)"])
        } catch {
            lastModelError.withLock { $0 = "\(error)" }
            runtime.counters.increment("modelRefusals")
            runtime.logger.warning("model refused; keeping the running one", metadata: [LogKey.error: "\(error)"])
            runtime.reportError(topic: message.topic, reason: "model refused: \(error)", payload: message.payload)
        }
        publishStatus()
    }

    func publishStatus() {
        let model = currentModel
        let status = ModelStatus(
            version: model.info.version, sha256: model.info.sha256, loadedAt: model.loadedAt, source: model.source,
            lastError: lastModelError.withLock { $0 })
        runtime.client.publish(
            MQTTOutgoing(topic: "\(runtime.topics.prefix)/models/purchase-predictor/status", payload: GuardianJSON.encode(status), retain: true)
        ) { _ in }
    }
}
