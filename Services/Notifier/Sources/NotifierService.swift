import Foundation
import GRDB
import GuardianCommandRouter
import GuardianShared
import Logging
import MQTT
import ServiceLifecycle
import Synchronization

/// The notifier: nudges, command outcomes and child status changes turned into notifications that
/// respect each person's threshold, quiet hours and limits, delivered once on
/// `guardian/notifications/{recipientId}` and, where configured, to a webhook.
public final class NotifierService: Service, Sendable {
    public static let name = "notifier"

    struct State {
        var ledger: NudgeLedger
        var household = Household()
        var commands = RecentCommands()
    }

    let runtime: BusRuntime
    let store: NotifierStore
    let outbox: DurableOutbox
    let rules: NotificationRules
    let settings: NotifierSettings
    let clock: ServiceClock
    let state: Mutex<State>
    let privacy: PrivacyDesk

    /// What the notifier keeps: the history of notifications (exactly-once and cool-downs),
    /// notifications held for quiet hours, and webhook jobs still being retried.
    static let retainedKinds = [
        RetentionPolicy.Kind("history", days: 30), RetentionPolicy.Kind("held", days: 7), RetentionPolicy.Kind("webhookJobs", days: 7),
    ]

    public init(config: GuardianConfig, logger: Logger, clock: ServiceClock = .system) throws {
        // Under load a prediction and its notification's echo arrive a few at a time, and each turn
        // costs a commit: a short pause lets a turn take many.
        runtime = try BusRuntime(service: Self.name, config: config, logger: logger, coalescingPause: BusRuntime.pauseUnderLoad)
        store = try NotifierStore(config: config, logger: runtime.logger)
        outbox = DurableOutbox(store: store.store, client: runtime.client, logger: runtime.logger)
        settings = try NotifierSettings(settings: config.settings)
        var rules = NotificationRules()
        if let cooldown = settings.zoneCooldown { rules.zoneCooldown = cooldown }
        self.rules = rules
        self.clock = clock
        var ledger = NudgeLedger(window: max(3600, rules.zoneCooldown))
        for nudge in try store.recentNudges(since: clock.now().adding(seconds: -ledger.window)) {
            ledger.record(recipient: nudge.recipient, zoneId: nudge.zoneId, at: nudge.at)
        }
        state = Mutex(State(ledger: ledger))
        privacy = try PrivacyDesk(runtime: runtime, store: store.store, kinds: Self.retainedKinds, sharded: false, clock: clock)
    }

    public var counters: Counters { runtime.counters }

    public func run() async throws {
        // Routing state as last seen, so queued messages are routed before the retained ones arrive again.
        for (topic, payload) in try store.retained.all() { applyRetained(topic: topic, payload: payload) }
        let prefix = runtime.topics.prefix
        // Predictions and the echoes of what they notified, read in one turn, are stored with one commit.
        runtime.commitEachTurn(to: store.store)
        // A notification must never arrive twice: after a crash, only what the broker never received is sent again.
        try await outbox.replayUnechoed(
            echoes: "\(prefix)/notifications/+", barrier: "\(runtime.topics.presence(Self.name, runtime.config.instanceId))/outbox")
        try await runtime.client.subscribeInBursts(Topics.shared(Self.name, "\(prefix)/predictions/+")) { [self] in handlePredictions($0) }
        try await runtime.client.subscribe(Topics.shared(Self.name, "\(prefix)/parents/+/replies")) { [self] in handleReply($0) }
        try await runtime.client.subscribe(Topics.shared(Self.name, "\(prefix)/children/+/status")) { [self] in handleStatus($0) }
        try await runtime.client.subscribe(Topics.shared(Self.name, "\(prefix)/children/+/ack")) { [self] in handleAck($0) }
        try await runtime.client.subscribe(Topics.shared(Self.name, "\(prefix)/children/+/command")) { [self] in handleChildCommand($0) }
        for filter in ["\(prefix)/families/+", "\(prefix)/users/+/preferences", runtime.topics.events(kind: .profile)] {
            try await runtime.client.subscribe(filter) { [self] in handleRetained($0) }
        }
        try await privacy.open(for: self)
        try await runtime.start()

        var dispatcher = WebhookDispatcher(store: store.store, logger: runtime.logger, counters: runtime.counters)
        if let delay = settings.webhookBaseDelay { dispatcher.baseDelay = delay }
        let webhooks = dispatcher
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [outbox] in await outbox.runFlushing() }
            group.addTask { await webhooks.run() }
            group.addTask { [privacy] in await privacy.runSweeping() }
            group.addTask { [self] in
                while !Task.isCancelled {
                    releaseHeld()
                    try? await Task.sleep(for: .milliseconds(500))
                }
            }
            await runtime.runUntilShutdown()
            group.cancelAll()
        }
        await runtime.stop()
        outbox.flush()
    }

    public func crash() async { await runtime.crash() }

    // MARK: Sources

    /// Predictions read in one burst, as the subscription delivers them: one commit for all of them
    /// (public for the benchmark).
    public func handlePredictions(_ messages: [MQTTMessage]) {
        runtime.handle(messages, committingTo: store.store, handlePrediction)
    }

    func handlePrediction(_ message: MQTTMessage) {
        guard let deviceId = topicId(message, at: 1), let prediction = PredictionDigest(scanning: message.payload) ?? decode(message) else { return }
        guard prediction.deviceId == deviceId else { return reject(message, "deviceId does not match the topic") }
        guard !privacy.isErased(deviceId, at: prediction.ts) else { return }
        let now = clock.now()
        let (preferences, zone, history) = state.withLock {
            ($0.household.preferences[deviceId], $0.household.timeZone(of: deviceId), $0.ledger.history(recipient: deviceId, zoneId: prediction.zoneId, now: now))
        }
        let decision = rules.nudge(
            probability: prediction.probability, defaultThreshold: prediction.threshold, zoneId: prediction.zoneId, preferences: preferences,
            timeZone: zone, now: now, nudgesInLastHour: history.lastHour, lastNudgeForZone: history.lastForZone)
        let (title, body) = NotificationText.nudge(prediction, zoneName: nil)
        var data: [String: JSONObject] = [
            "deviceId": .string(deviceId), "zoneId": .string(prediction.zoneId), "probability": .number(prediction.probability),
            "riskLevel": .string(prediction.riskLevel.rawValue), "predictionId": .string(prediction.id),
        ]
        if let merchant = prediction.merchant { data["merchant"] = .string(merchant) }
        let notification = UserNotification(
            id: "nudge-\(prediction.id)", ts: now, kind: .spendingNudge, title: title, body: body,
            priority: prediction.riskLevel == .high ? .high : .normal, data: data)
        dispatch(notification, to: [deviceId], decision: decision, zoneId: prediction.zoneId, preferences: [deviceId: preferences], source: message, at: now)
    }

    func handleReply(_ message: MQTTMessage) {
        guard let userId = topicId(message, at: 1), let reply: CommandReply = decode(message) else { return }
        let (title, body) = NotificationText.reply(reply)
        let notification = UserNotification(
            id: "reply-\(reply.commandId)-\(reply.status.rawValue)", ts: clock.now(), kind: .commandReply, title: title, body: body,
            priority: reply.status == .accepted ? .low : .normal,
            data: ["commandId": .string(reply.commandId), "status": .string(reply.status.rawValue)])
        deliverRouted(notification, to: [userId], source: message)
    }

    func handleStatus(_ message: MQTTMessage) {
        guard let deviceId = topicId(message, at: 1), !message.payload.isEmpty, let status: ChildStatus = decode(message),
            !privacy.isErased(deviceId, at: status.ts)
        else { return }
        let (parents, name) = state.withLock { ($0.household.families.parents(of: deviceId), $0.household.families.name(of: deviceId)) }
        guard !parents.isEmpty else { return runtime.counters.increment("statusWithoutFamily") }
        let (title, body) = NotificationText.status(status, childName: name)
        let notification = UserNotification(
            id: "status-\(deviceId)-\(status.ts.milliseconds)", ts: clock.now(), kind: .status, title: title, body: body, priority: .normal,
            data: ["deviceId": .string(deviceId), "message": .string(status.message)])
        deliverRouted(notification, to: parents, source: message)
    }

    /// A child's acknowledgement tells each parent what is now in effect, times on the parent's clock
    /// (else the child's).
    func handleAck(_ message: MQTTMessage) {
        guard let deviceId = topicId(message, at: 1), let ack: CommandAck = decode(message) else { return }
        let (parents, name, command, zones) = state.withLock { s in
            let parents = s.household.families.parents(of: deviceId)
            let childZone = s.household.timeZone(of: deviceId)
            return (parents, s.household.families.name(of: deviceId), s.commands.command(ack.commandId, for: deviceId),
                    parents.map { s.household.knownTimeZone(of: $0) ?? childZone })
        }
        guard !parents.isEmpty else { return runtime.counters.increment("ackWithoutFamily") }
        for (parent, zone) in zip(parents, zones) {
            let (title, body) = NotificationText.ack(ack, childName: name, command: command, timeZone: zone)
            let notification = UserNotification(
                id: "ack-\(deviceId)-\(ack.commandId)", ts: clock.now(), kind: .commandReply, title: title, body: body, priority: ack.ok ? .low : .normal,
                data: ["deviceId": .string(deviceId), "commandId": .string(ack.commandId), "ok": .bool(ack.ok)])
            deliverRouted(notification, to: [parent], source: message)
        }
    }

    /// A parent's latest command for a child: a `warning` tells the child its message (urgent), anything
    /// else tells the child what changed.
    func handleChildCommand(_ message: MQTTMessage) {
        guard let deviceId = topicId(message, at: 1), !message.payload.isEmpty, let latest: JSONObject = decode(message) else { return }
        guard let id = latest["id"]?.string, let action = latest["command"]?["action"]?.string else {
            return reject(message, "a child command needs id and command.action")
        }
        guard !privacy.isErased(deviceId, at: latest["issuedAt"]?.string.flatMap { Timestamp(rfc3339: $0) }) else { return }
        if let sent = try? JSONDecoder().decodePayload(ChildCommandMessage.self, from: message.payload) {
            state.withLock { $0.commands.record(sent, for: deviceId) }
        }
        let text = NotificationText.childCommand(action: action, message: latest["command"]?["message"]?.string)
        let notification = UserNotification(
            id: "command-\(id)", ts: clock.now(), kind: action == "warning" ? .warning : .restriction, title: text.title, body: text.body,
            priority: action == "warning" ? .high : .normal, data: ["commandId": .string(id), "action": .string(action)])
        deliverRouted(notification, to: [deviceId], source: message)
    }

    /// Families, preferences and profiles: kept (and stored) to route and filter.
    func handleRetained(_ message: MQTTMessage) {
        // Household ignores a topic whose id breaks the rule: report it like any other bad input.
        guard let levels = runtime.topics.levels(of: message.topic), levels.count >= 2, Identifier.isValid(levels[1]) else {
            return reject(message, "topic id must match [A-Za-z0-9_-]{1,64}")
        }
        guard applyRetained(topic: message.topic, payload: message.payload, report: message) else { return }
        try? store.retained.save(topic: message.topic, payload: message.payload)
    }

    @discardableResult
    private func applyRetained(topic: String, payload: Data, report: MQTTMessage? = nil) -> Bool {
        guard let levels = runtime.topics.levels(of: topic) else { return false }
        do {
            return try state.withLock { try $0.household.apply(levels: levels, payload: payload) }
        } catch {
            if let report { reject(report, ContractViolation.from(error).description) }
            return false
        }
    }

    // MARK: Delivery

    private func deliverRouted(_ notification: UserNotification, to recipients: [String], source: MQTTMessage) {
        let now = clock.now()
        for recipient in recipients {
            let (preferences, zone) = state.withLock { ($0.household.preferences[recipient], $0.household.timeZone(of: recipient)) }
            let decision = rules.other(priority: notification.priority, preferences: preferences, timeZone: zone, now: now)
            dispatch(notification, to: [recipient], decision: decision, zoneId: nil, preferences: [recipient: preferences], source: source, at: now)
        }
    }

    private func dispatch(
        _ notification: UserNotification, to recipients: [String], decision: NotificationRules.Decision, zoneId: String?,
        preferences: [String: UserPreferences?], source: MQTTMessage, at now: Timestamp
    ) {
        if case .drop(let reason) = decision {
            runtime.counters.increment("dropped")
            runtime.logger.debug("notification dropped", metadata: ["notification.id": "\(notification.id)", LogKey.reason: "\(reason)"])
            return
        }
        do {
            let (staged, fresh) = try store.store.write { db -> ([DurableOutbox.Staged], Int) in
                var staged: [DurableOutbox.Staged] = []
                var fresh = 0
                for recipient in recipients {
                    let deliverNow = decision == .deliver
                    guard try store.record(notification, recipient: recipient, zoneId: zoneId, delivered: deliverNow, at: now, in: db) else { continue }
                    fresh += 1
                    if case .hold(let until) = decision {
                        try store.hold(notification, recipient: recipient, until: until, in: db)
                    } else {
                        staged.append(try stageDelivery(notification, recipient: recipient, webhook: preferences[recipient]??.webhookUrl, at: now, in: db))
                    }
                }
                return (staged, fresh)
            }
            if notification.kind == .spendingNudge && decision == .deliver && fresh > 0 {
                state.withLock { s in for recipient in recipients { s.ledger.record(recipient: recipient, zoneId: zoneId, at: now) } }
            }
            if fresh < recipients.count { runtime.counters.increment("duplicates", by: recipients.count - fresh) }
            runtime.counters.increment(decision == .deliver ? "delivered" : "held", by: fresh)
            outbox.send(staged)
        } catch {
            runtime.logger.error("cannot record notification", metadata: [LogKey.error: "\(error)"])
            reject(source, "not stored: \(error)")
        }
    }

    private func stageDelivery(_ notification: UserNotification, recipient: String, webhook: String?, at now: Timestamp, in db: Database) throws
        -> DurableOutbox.Staged
    {
        let payload = notification.wirePayload
        if let webhook {
            let body = GuardianJSON.encode(["recipient": JSONObject.string(recipient), "notification": try JSONDecoder().decode(JSONObject.self, from: payload)])
            try store.queueWebhook(url: webhook, body: body, at: .now(), in: db)
        }
        return try outbox.stage(MQTTOutgoing(topic: "\(runtime.topics.prefix)/notifications/\(recipient)", payload: payload), in: db)
    }

    /// Delivers notifications whose quiet hours are over.
    func releaseHeld() {
        let now = clock.now()
        guard let due = try? store.due(now: now), !due.isEmpty else { return }
        for (recipient, notification) in due {
            let webhook = state.withLock { $0.household.preferences[recipient]?.webhookUrl }
            do {
                let staged = try store.store.write { db in
                    try store.release(recipient: recipient, id: notification.id, in: db)
                    return try stageDelivery(notification, recipient: recipient, webhook: webhook, at: now, in: db)
                }
                outbox.send([staged])
                runtime.counters.increment("released")
            } catch {
                runtime.logger.error("cannot release a held notification", metadata: [LogKey.error: "\(error)"])
            }
        }
    }

    // MARK: Helpers

    /// The id at `index` among the topic's levels after the prefix (e.g. `predictions/{id}`).
    private func topicId(_ message: MQTTMessage, at index: Int) -> String? {
        guard let levels = runtime.topics.levels(of: message.topic), levels.count > index, Identifier.isValid(levels[index]) else {
            reject(message, "topic id must match [A-Za-z0-9_-]{1,64}")
            return nil
        }
        return String(levels[index])
    }

    private func decode<T: Decodable>(_ message: MQTTMessage) -> T? {
        do {
            return try JSONDecoder().decodePayload(T.self, from: message.payload)
        } catch {
            reject(message, ContractViolation.from(error).description)
            return nil
        }
    }

    private func reject(_ message: MQTTMessage, _ reason: String) {
        runtime.reportError(topic: message.topic, reason: reason, payload: message.payload)
    }
}
