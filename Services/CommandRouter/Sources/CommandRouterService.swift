import Foundation
import GRDB
import GuardianShared
import Logging
import MQTT
import ServiceLifecycle
import Synchronization

/// The command-router: a parent's words or structured command, authorised against the families,
/// turned into the child's latest command and effective policy (both retained), republished when a
/// restriction starts or ends, with a reply to the parent.
public final class CommandRouterService: Service, Sendable {
    public static let name = "command-router"

    struct State {
        var household = Household()
        var children: [String: RouterStore.Child] = [:]
    }

    let runtime: BusRuntime
    let store: RouterStore
    let outbox: DurableOutbox
    let interpreter: any Interpreter
    let builtIn = BuiltInInterpreter()
    let usesModel: Bool
    /// The model's interpretations under way (each can take seconds; the command was acknowledged
    /// when it was read): a stop waits for them, so that every command read before it is answered
    /// (and a kill leaves them kept in the store, `RouterStore+ModelQuestions`).
    let modelCalls = Mutex<[UUID: Task<Void, Never>]>([:])
    let clock: ServiceClock
    let state = Mutex(State())
    let privacy: PrivacyDesk
    let handoff: ShardHandoff

    /// What the router keeps besides each child's rules: app usage for activity questions, and the
    /// ids of handled commands (so a redelivered one is not applied twice).
    static let retainedKinds = [RetentionPolicy.Kind("usage", days: 30), RetentionPolicy.Kind("handledCommands", days: 30)]

    public init(config: GuardianConfig, logger: Logger, clock: ServiceClock = .system, interpreter: (any Interpreter)? = nil) throws {
        runtime = try BusRuntime(service: Self.name, config: config, logger: logger)
        store = try RouterStore(config: config, logger: runtime.logger)
        outbox = DurableOutbox(store: store.store, client: runtime.client, logger: runtime.logger)
        if let interpreter {
            self.interpreter = interpreter
            usesModel = !(interpreter is BuiltInInterpreter)
        } else if let model = try LLMInterpreter.Configuration(settings: config.settings) {
            self.interpreter = LLMInterpreter(configuration: model)
            usesModel = true
        } else {
            self.interpreter = BuiltInInterpreter()
            usesModel = false
        }
        self.clock = clock
        privacy = try PrivacyDesk(runtime: runtime, store: store.store, kinds: Self.retainedKinds, sharded: true, clock: clock)
        handoff = ShardHandoff(runtime: runtime, store: store.store, inBursts: false)
    }

    /// Whether this instance owns shard 0 under the layout it follows: it answers what concerns no
    /// child of its own (clarifications, refusals, requests not understood).
    var isLead: Bool { handoff.ownedShard?.index == 0 }

    public var counters: Counters { runtime.counters }

    public func run() async throws {
        for (topic, payload) in try store.retained.all() { applyRetained(topic: topic, payload: payload) }
        let children = try store.children()
        state.withLock { $0.children = children }
        try outbox.replay()
        let prefix = runtime.topics.prefix
        // Families; time zones from profiles and people's preferences (a parent reads `until` on their own clock).
        for filter in ["\(prefix)/families/+", runtime.topics.events(kind: .profile), "\(prefix)/users/+/preferences"] {
            try await runtime.client.subscribe(filter) { [self] in handleRetained($0) }
        }
        try await runtime.client.subscribe("\(prefix)/parents/+/commands") { [self] in handleCommand($0) }
        try await runtime.client.subscribe("\(prefix)/parents/+/activity") { [self] in handleActivity($0) }
        try await runtime.client.subscribe(runtime.topics.events(kind: .usage)) { [self] in handleUsage($0) }
        try await privacy.open(for: self)
        try await handoff.open(for: self)
        privacy.answer(for: { [handoff] in handoff.owns($0) })
        try await runtime.start()
        refreshPolicies()
        askUnansweredQuestions()

        await withTaskGroup(of: Void.self) { group in
            group.addTask { [outbox] in await outbox.runFlushing() }
            group.addTask { [privacy] in await privacy.runSweeping() }
            group.addTask { [self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: .milliseconds(250))
                    refreshPolicies()
                }
            }
            await runtime.runUntilShutdown()
            group.cancelAll()
        }
        // The model's answers still go out (its timeout bounds the wait).
        for call in modelCalls.withLock({ Array($0.values) }) { await call.value }
        await runtime.stop()
        outbox.flush()
    }

    // MARK: Commands

    func handleCommand(_ message: MQTTMessage) {
        guard let parent = topicId(message) else { return }
        let request: ParentRequest
        do {
            request = try JSONDecoder().decodePayload(ParentRequest.self, from: message.payload)
        } catch {
            runtime.reportError(topic: message.topic, reason: ContractViolation.from(error).description, payload: message.payload)
            if let id = (try? JSONSerialization.jsonObject(with: message.payload) as? [String: Any])?["id"] as? String, Identifier.isValidEventId(id), isLead {
                reply(to: parent, CommandReply(commandId: id, status: .rejected, summary: "Command not understood", reason: "\(ContractViolation.from(error))"))
            }
            return
        }
        let interpretation: Interpretation
        if let command = request.command {
            // A structured `until` must lie ahead, within 7 days, as the words' do.
            do {
                try command.validate(now: clock.now().date)
            } catch {
                runtime.reportError(topic: message.topic, reason: "command: \(error)", payload: message.payload)
                if isLead { reply(to: parent, CommandReply(commandId: request.id, status: .rejected, summary: "Command not valid", reason: "\(error)")) }
                return
            }
            interpretation = .command(command, child: request.child)
        } else {
            let text = request.text ?? ""
            var zone = timeZoneForParent(parent, named: request.child)
            interpretation = request.child == nil ? readOnNamedChildsClock(text, parent: parent, zone: &zone) : builtIn.interpret(text, now: clock.now().date, timeZone: zone)
            if interpretation.isClarify, usesModel, request.text != nil {
                // Only what the rules would ask about goes to the model.
                return askModel(request, text: text, parent: parent, zone: zone, source: message)
            }
        }
        process(request, parent: parent, interpretation: interpretation, source: message)
    }

    /// Asks the model about a parent's words, off the network thread (it can take seconds), then
    /// handles its answer as usual. The command is kept in the store until then (`RouterStore.ask`,
    /// or already kept under the id `kept`), so a router killed meanwhile asks again on its next start.
    private func askModel(_ request: ParentRequest, text: String, parent: String, zone: TimeZone, source: MQTTMessage, kept: Int64? = nil) {
        let question: Int64?
        do {
            question = try kept ?? store.ask(source, at: clock.now())
        } catch {
            runtime.logger.error("cannot keep the command asked about", metadata: [LogKey.topic: "\(source.topic)", LogKey.error: "\(error)"])
            question = nil
        }
        let call = UUID()
        modelCalls.withLock { calls in
            calls[call] = Task { [self] in
                let interpretation = await interpreter.interpret(text, now: clock.now().date, timeZone: zone)
                process(request, parent: parent, interpretation: interpretation, source: source)
                if let question {
                    do {
                        try store.answered(question)
                    } catch {
                        runtime.logger.error("cannot forget the command answered", metadata: [LogKey.topic: "\(source.topic)", LogKey.error: "\(error)"])
                    }
                }
                modelCalls.withLock { _ = $0.removeValue(forKey: call) }
            }
        }
    }

    /// A command asked about longer ago than this (seconds) when the router starts again is not
    /// applied: its "for two hours" would count from the restart, its "tonight" might be tomorrow's.
    static let staleQuestion = 600.0

    /// Asks the model again about the commands it was asked before the router last stopped and
    /// whose answers were never handled (a kill, a crash). With no model configured any more, the
    /// rules answer them. One asked too long ago (`staleQuestion`) is refused instead: the parent is
    /// told to say it again.
    private func askUnansweredQuestions() {
        let questions: [RouterStore.ModelQuestion]
        do {
            questions = try store.unansweredQuestions()
        } catch {
            return runtime.logger.error("cannot read the commands asked about", metadata: [LogKey.error: "\(error)"])
        }
        for question in questions {
            // Kept only once decoded: these decode again.
            guard let parent = topicId(question.message), let request = try? JSONDecoder().decodePayload(ParentRequest.self, from: question.message.payload),
                let text = request.text
            else {
                try? store.answered(question.id)
                continue
            }
            let age = Double(clock.now().milliseconds - question.asked.milliseconds) / 1000
            if age > Self.staleQuestion {
                if isLead {
                    reply(to: parent, CommandReply(
                        commandId: request.id, status: .rejected, summary: "Not applied",
                        reason: "Guardian restarted while reading these words, \(Int(age / 60)) minutes ago: say them again if they still hold"))
                }
                try? store.answered(question.id)
                continue
            }
            askModel(request, text: text, parent: parent, zone: timeZoneForParent(parent, named: request.child), source: question.message, kept: question.id)
        }
    }

    /// The parent's words read on the clock of the child they name ("until 8pm" is Ben's 8 pm): of
    /// the readings on each child's clock, the one that names that child; else the reading on `zone`.
    private func readOnNamedChildsClock(_ text: String, parent: String, zone: inout TimeZone) -> Interpretation {
        let now = clock.now().date
        let children = state.withLock { s in s.household.families.children(of: parent).map { ($0, s.household.timeZones[$0.deviceId]) } }
        for (child, childZone) in children {
            guard let childZone, childZone != zone else { continue }
            let read = builtIn.interpret(text, now: now, timeZone: childZone)
            if case .command(_, let named?) = read, named == child.deviceId || named.lowercased() == child.name.lowercased() {
                zone = childZone
                return read
            }
        }
        return builtIn.interpret(text, now: now, timeZone: zone)
    }

    /// The time zone to read a parent's words in: their (named or only) child's.
    private func timeZoneForParent(_ parent: String, named: String?) -> TimeZone {
        state.withLock { s in
            let children = s.household.families.children(of: parent)
            let child = named.flatMap { name in children.first { $0.deviceId == name || $0.name.lowercased() == name.lowercased() } }
                ?? (children.count == 1 ? children[0] : nil)
            return child.flatMap { s.household.timeZones[$0.deviceId] } ?? TimeZone(identifier: "UTC")!
        }
    }

    func process(_ request: ParentRequest, parent: String, interpretation: Interpretation, source: MQTTMessage) {
        guard case .command(let command, let named) = interpretation else {
            if isLead { reply(to: parent, CommandReply(commandId: request.id, status: .clarify, summary: interpretation.summary(in: .gmt))) }
            return
        }
        let resolution = state.withLock { s in
            // A child chosen for the message and another named in its words: which one is meant?
            if let chosen = request.child, let named, !Self.pronouns.contains(named.lowercased()),
               resolveChild(parent: parent, named: named, in: s) != resolveChild(parent: parent, named: chosen, in: s) {
                let names = [chosen, named].map { name in s.household.families.children(of: parent).first { $0.deviceId == name }?.name ?? name }
                return Resolution.clarify("Which child: \(names[0]) or \(names[1])? The message was sent for \(names[0]) but names \(names[1]).")
            }
            return resolveChild(parent: parent, named: request.child ?? named, in: s)
        }
        let deviceId: String
        switch resolution {
        case .child(let id):
            deviceId = id
        case .clarify(let question):
            if isLead { reply(to: parent, CommandReply(commandId: request.id, status: .clarify, command: encode(command), summary: question)) }
            return
        case .refuse(let reason):
            runtime.counters.increment("refused")
            let zone = state.withLock { $0.household.knownTimeZone(of: parent) } ?? timeZoneForParent(parent, named: request.child ?? named)
            if isLead {
                reply(to: parent, CommandReply(commandId: request.id, status: .rejected, command: encode(command), summary: command.summary(in: zone), reason: reason))
            }
            return
        }
        let admitted = handoff.admits(deviceId, source) { [self] source in
            process(request, parent: parent, interpretation: interpretation, source: source)
        }
        guard admitted else { return }
        execute(command, id: request.id, parent: parent, deviceId: deviceId, source: source)
    }

    enum Resolution: Equatable {
        case child(String)
        case clarify(String)
        case refuse(String)
    }

    /// Words that name no child of their own: the message's child, or the only one.
    static let pronouns: Set<String> = ["him", "her", "them", "the kid", "the kids", "my kid", "my child", "he", "she"]

    /// A child by id or name among the parent's children; pronouns or nothing only when there is one.
    func resolveChild(parent: String, named: String?, in s: State) -> Resolution {
        let mine = s.household.families.children(of: parent)
        guard !mine.isEmpty else { return .refuse("you are not a parent in any family") }
        guard let named, !Self.pronouns.contains(named.lowercased()) else {
            if mine.count == 1 { return .child(mine[0].deviceId) }
            return .clarify("Which child: \(mine.map(\.name).joined(separator: " or "))?")
        }
        if let child = mine.first(where: { $0.deviceId == named || $0.name.lowercased() == named.lowercased() }) { return .child(child.deviceId) }
        let elsewhere = s.household.families.families.values.flatMap(\.children).contains { $0.deviceId == named || $0.name.lowercased() == named.lowercased() }
        return elsewhere ? .refuse("\(named) is not in your family") : .clarify("I don't know \(named). Which child: \(mine.map(\.name).joined(separator: " or "))?")
    }

    /// Applies an authorised command: rules, retained command and policy, reply, in one transaction.
    /// Skipped when the child moved to another shard meanwhile (a model's interpretation runs off the
    /// network thread): the new owner applies it, with the state handed off.
    private func execute(_ command: ParentCommand, id: String, parent: String, deviceId: String, source: MQTTMessage) {
        let now = clock.now()
        state.withLock { s in
            guard handoff.owns(deviceId) else { return }
            let zone = s.household.timeZone(of: deviceId)
            let engine = PolicyEngine(timeZone: zone)
            var child = s.children[deviceId] ?? RouterStore.Child()
            let result = engine.apply(command, id: id, now: now, to: child.rules)
            // The parent reads it: `until` on their clock when known, else on the child's.
            let parentZone = s.household.knownTimeZone(of: parent) ?? zone
            var summary = "\(s.household.families.name(of: deviceId)): \(command.summary(in: parentZone))"
            var messages: [MQTTOutgoing] = []
            switch result {
            case .failure(let rejection):
                messages.append(replyMessage(to: parent, CommandReply(commandId: id, status: .rejected, command: encode(command), summary: summary, reason: rejection.reason)))
            case .success(let rules):
                child.rules = rules
                let expires = rules.filter { $0.commandId == id }.compactMap(\.until).max()
                // A block asked again that goes on longer than asked (`PolicyEngine.adding`) says when it ends.
                if let expires, [.shutdown, .blockApp].contains(command.action), let own = PolicyEngine.end(of: command, now: now), own < expires {
                    summary = "\(s.household.families.name(of: deviceId)): \(command.effect(expiresAt: expires, in: parentZone)) (a longer block was already in force)"
                }
                let latest = ChildCommandMessage(id: id, issuedAt: now, issuedBy: parent, command: command, expiresAt: expires)
                messages.append(MQTTOutgoing(topic: "\(runtime.topics.prefix)/children/\(deviceId)/command", payload: GuardianJSON.encode(latest), retain: true))
                if let policy = policyIfChanged(&child, engine: engine, now: now) { messages.append(policyMessage(policy, deviceId: deviceId)) }
                messages.append(replyMessage(to: parent, CommandReply(commandId: id, status: .accepted, command: encode(command), summary: summary)))
            }
            do {
                let staged = try store.store.write { db -> [DurableOutbox.Staged] in
                    guard try store.firstTime(commandId: id, parent: parent, deviceId: deviceId, at: now, in: db) else { return [] }
                    try store.save(child, deviceId: deviceId, in: db)
                    return try messages.map { try outbox.stage($0, in: db) }
                }
                guard !staged.isEmpty else { return runtime.counters.increment("duplicates") }
                s.children[deviceId] = child
                outbox.send(staged)
                runtime.counters.increment(result.isSuccess ? "accepted" : "rejected")
            } catch {
                runtime.logger.error("cannot store command", metadata: [LogKey.deviceId: "\(deviceId)", LogKey.error: "\(error)"])
                runtime.reportError(topic: source.topic, reason: "not stored: \(error)", payload: source.payload)
            }
        }
    }

    // MARK: Policies

    /// The child's policy at `now` if it differs from the last one published (the version moves on).
    private func policyIfChanged(_ child: inout RouterStore.Child, engine: PolicyEngine, now: Timestamp) -> ChildPolicy? {
        child.rules = engine.prune(child.rules, now: now)
        let restrictions = engine.restrictions(child.rules, at: now)
        guard restrictions != child.published else { return nil }
        child.version += 1
        child.published = restrictions
        return ChildPolicy(version: child.version, updatedAt: now, restrictions: restrictions)
    }

    private func policyMessage(_ policy: ChildPolicy, deviceId: String) -> MQTTOutgoing {
        MQTTOutgoing(topic: "\(runtime.topics.prefix)/children/\(deviceId)/policy", payload: GuardianJSON.encode(policy), retain: true)
    }

    /// Republishes the policy of every child whose restrictions started or ended.
    func refreshPolicies() {
        let now = clock.now()
        state.withLock { s in
            for (deviceId, current) in s.children where handoff.owns(deviceId) {
                var child = current
                let engine = PolicyEngine(timeZone: s.household.timeZone(of: deviceId))
                guard let policy = policyIfChanged(&child, engine: engine, now: now) else { continue }
                do {
                    let staged = try store.store.write { db in
                        try store.save(child, deviceId: deviceId, in: db)
                        return try outbox.stage(policyMessage(policy, deviceId: deviceId), in: db)
                    }
                    s.children[deviceId] = child
                    outbox.send([staged])
                    runtime.counters.increment("policyUpdates")
                } catch {
                    runtime.logger.error("cannot store policy", metadata: [LogKey.deviceId: "\(deviceId)", LogKey.error: "\(error)"])
                }
            }
        }
    }

    // MARK: Activity and context

    func handleUsage(_ message: MQTTMessage) {
        guard let event = try? JSONDecoder().decodePayload(DeviceEvent<AppUsage>.self, from: message.payload),
            message.topic == runtime.topics.event(event.deviceId, .usage)
        else { return runtime.reportError(topic: message.topic, reason: "not a usage event for this topic", payload: message.payload) }
        guard handoff.admits(event.deviceId, message, replay: { [self] in handleUsage($0) }), !privacy.isErased(event.deviceId, at: event.ts) else { return }
        try? store.addUsage(deviceId: event.deviceId, eventId: event.id, ts: event.ts, usage: event.body)
    }

    /// `guardian/parents/{userId}/activity` `{child?, since?}`, answered on the response topic with the
    /// child's app usage since `since` (default: the last 24 hours) and current restrictions.
    func handleActivity(_ message: MQTTMessage) {
        guard let parent = topicId(message) else { return }  // reported by topicId
        // Only under the asker's own activity-replies/: the router may publish children's commands and
        // policies and every parent's replies, so any other response topic would let a user forge them.
        let replies = "\(runtime.topics.prefix)/parents/\(parent)/activity-replies/"
        guard let responseTopic = message.properties.responseTopic, TopicFilter.isValidTopic(responseTopic),
            responseTopic.hasPrefix(replies), responseTopic.count > replies.count
        else {
            return runtime.reportError(
                topic: message.topic, reason: "an activity request needs an MQTT 5 response topic under \(replies)", payload: message.payload)
        }
        struct Request: Decodable {
            var child: String?
            var since: Timestamp?
        }
        let request: Request
        do {
            request = message.payload.isEmpty ? Request() : try JSONDecoder().decodePayload(Request.self, from: message.payload)
        } catch {
            return runtime.reportError(topic: message.topic, reason: ContractViolation.from(error).description, payload: message.payload)
        }
        let (resolution, restrictions, name) = state.withLock { s in
            let resolution = resolveChild(parent: parent, named: request.child, in: s)
            guard case .child(let id) = resolution else { return (resolution, [ChildPolicy.Restriction](), "") }
            return (resolution, s.children[id]?.published ?? [], s.household.families.name(of: id))
        }
        var answer: [String: JSONObject]
        if case .child(let id) = resolution {
            guard handoff.admits(id, message, replay: { [self] in handleActivity($0) }) else { return }
            let since = request.since ?? clock.now().adding(seconds: -86400)
            let usage = (try? store.usage(deviceId: id, since: since)) ?? (apps: [:], categories: [:])
            answer = [
                "child": .string(id), "name": .string(name), "since": .string(since.rfc3339),
                "apps": .object(usage.apps.mapValues { .number($0) }), "categories": .object(usage.categories.mapValues { .number($0) }),
                "restrictions": (try? JSONDecoder().decode(JSONObject.self, from: GuardianJSON.encode(restrictions))) ?? .array([]),
            ]
        } else {
            guard isLead else { return }
            switch resolution {
            case .clarify(let question): answer = ["error": .string(question)]
            case .refuse(let reason): answer = ["error": .string(reason)]
            case .child: answer = [:]
            }
        }
        runtime.client.publish(
            MQTTOutgoing(
                topic: responseTopic, payload: GuardianJSON.encode(answer),
                properties: MQTTProperties(correlationData: message.properties.correlationData))
        ) { _ in }
    }

    func handleRetained(_ message: MQTTMessage) {
        // Household ignores a topic whose id breaks the rule: report it like any other bad input.
        guard let levels = runtime.topics.levels(of: message.topic), levels.count >= 2, Identifier.isValid(levels[1]) else {
            return runtime.reportError(topic: message.topic, reason: "topic id must match [A-Za-z0-9_-]{1,64}", payload: message.payload)
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
            if let report { runtime.reportError(topic: report.topic, reason: ContractViolation.from(error).description, payload: report.payload) }
            return false
        }
    }

    // MARK: Helpers

    /// A reply that changes nothing (clarify, refusals before any state): published directly.
    private func reply(to parent: String, _ reply: CommandReply) {
        runtime.client.publish(replyMessage(to: parent, reply)) { _ in }
    }

    private func replyMessage(to parent: String, _ reply: CommandReply) -> MQTTOutgoing {
        MQTTOutgoing(topic: "\(runtime.topics.prefix)/parents/\(parent)/replies", payload: GuardianJSON.encode(reply))
    }

    private func encode(_ command: ParentCommand) -> JSONObject? {
        try? JSONDecoder().decode(JSONObject.self, from: GuardianJSON.encode(command))
    }

    private func topicId(_ message: MQTTMessage) -> String? {
        guard let levels = runtime.topics.levels(of: message.topic), levels.count == 3, Identifier.isValid(levels[1]) else {
            runtime.reportError(topic: message.topic, reason: "user id must match [A-Za-z0-9_-]{1,64}", payload: message.payload)
            return nil
        }
        return String(levels[1])
    }
}

extension Result {
    var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}
