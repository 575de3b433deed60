import Foundation
import GuardianShared
import Logging
import MQTT
import Synchronization

/// What ingest does with the MQTT messages of one read burst, synchronously on the network thread
/// so the broker's acknowledgements follow the commit: route, validate, normalise, de-duplicate,
/// store (one transaction per burst), republish.
public final class IngestPipeline: Sendable {
    static let maxBatchItems = 10_000

    let runtime: BusRuntime
    let store: IngestStore
    let normalizer = Mutex(EventNormalizer())
    let decoder = JSONDecoder()
    /// What was republished and what the broker acknowledged, flushed to the store as a watermark.
    let outbox = Mutex(Outbox())
    /// Drops uploads of erased devices that predate the erase.
    let privacy: PrivacyDesk?

    public init(runtime: BusRuntime, store: IngestStore, privacy: PrivacyDesk? = nil) {
        self.runtime = runtime
        self.store = store
        self.privacy = privacy
    }

    var topics: Topics { runtime.topics }

    public func handle(_ message: MQTTMessage) {
        handle(burst: [message])
    }

    /// Handles the messages read in one burst: each is validated on its own (and reported if bad),
    /// then everything accepted is stored in one transaction and republished, in arrival order.
    public func handle(burst messages: [MQTTMessage]) {
        let receivedAt = Timestamp.now()
        var accepted: [NormalizedEvent] = []
        var sources: [MQTTMessage] = []
        for message in messages {
            let events = validate(message, receivedAt: receivedAt)
            if !events.isEmpty {
                accepted += events
                sources.append(message)
            }
        }
        do {
            try accept(accepted)
        } catch {
            // Not the payloads' fault: the messages cannot be kept. Report them; the service keeps serving.
            runtime.logger.error("cannot store events", metadata: [LogKey.error: "\(error)", LogKey.count: "\(accepted.count)"])
            for source in sources { reject(source, "not stored: \(error)") }
        }
    }

    /// The events of one message in `ts` order, or none after reporting why it (or some of its
    /// batch items) cannot be accepted.
    private func validate(_ message: MQTTMessage, receivedAt: Timestamp) -> [NormalizedEvent] {
        if message.payload.isEmpty && message.topic.hasSuffix("/\(EventKind.profile.rawValue)") {
            return []  // a retained profile cleared (an erased device): nothing to accept
        }
        guard message.payload.count <= runtime.config.maxPayloadBytes else {
            reject(message, "payload of \(message.payload.count) bytes exceeds the \(runtime.config.maxPayloadBytes)-byte limit")
            return []
        }
        do {
            let (events, itemErrors, total) = try decode(message, receivedAt: receivedAt)
            if !itemErrors.isEmpty {
                let shown = itemErrors.prefix(5).map(\.description).joined(separator: "; ")
                reject(message, "\(itemErrors.count) of \(total) items rejected: \(shown)\(itemErrors.count > 5 ? "; …" : "")")
            }
            return events
        } catch let violation as ContractViolation {
            reject(message, violation.description)
        } catch {
            reject(message, ContractViolation.from(error).description)
        }
        return []
    }

    private func reject(_ message: MQTTMessage, _ reason: String) {
        runtime.reportError(topic: message.topic, reason: reason, payload: message.payload)
    }

    // MARK: Routing and decoding

    /// Returns accepted events (sorted by `ts`), the failures of batch items, and the item count.
    private func decode(_ message: MQTTMessage, receivedAt: Timestamp) throws -> ([NormalizedEvent], [ContractViolation], Int) {
        let levels = message.topicLevels
        if levels.count >= 3 && levels[0] == "owntracks" {
            return try decodeOwnTracks(message, levels: levels, receivedAt: receivedAt)
        }
        guard let rest = topics.levels(of: message.topic), rest.count == 3, rest[0] == "devices" else {
            throw ContractViolation("not a device upload topic; expected \(topics.prefix)/devices/{deviceId}/{kind}")
        }
        let deviceId = String(rest[1])
        guard Identifier.isValid(deviceId) else {
            throw ContractViolation(field: "topic", "device id must match [A-Za-z0-9_-]{1,64}")
        }
        guard let kind = EventKind(rawValue: String(rest[2])), EventKind.uploadKinds.contains(kind) else {
            throw ContractViolation(
                field: "topic", "unknown kind \(ContractViolation.quote(String(rest[2]))); expected one of \(EventKind.uploadKinds.map(\.rawValue).sorted().joined(separator: ", "))")
        }
        switch kind {
        case .location: return try decodeUploads(message.payload, Location.self, deviceId: deviceId, receivedAt: receivedAt)
        case .motion: return try decodeUploads(message.payload, Motion.self, deviceId: deviceId, receivedAt: receivedAt)
        case .health: return try decodeUploads(message.payload, HealthMetrics.self, deviceId: deviceId, receivedAt: receivedAt)
        case .state: return try decodeUploads(message.payload, DeviceState.self, deviceId: deviceId, receivedAt: receivedAt)
        case .budget: return try decodeUploads(message.payload, Budget.self, deviceId: deviceId, receivedAt: receivedAt)
        case .usage: return try decodeUploads(message.payload, AppUsage.self, deviceId: deviceId, receivedAt: receivedAt)
        case .profile: return try decodeUploads(message.payload, DeviceProfile.self, deviceId: deviceId, receivedAt: receivedAt)
        case .snapshot: return try decodeSnapshots(message.payload, deviceId: deviceId, receivedAt: receivedAt)
        case .transition, .offline: throw ContractViolation(field: "topic", "devices do not publish \(kind.rawValue)")
        }
    }

    /// Decodes one object or a batch of them; returns the items in upload order with their failures.
    private func decodeItems<Item: Decodable & Sendable>(
        _ payload: Data, _: Item.Type, using json: JSONDecoder? = nil
    ) throws -> ([(Int, Item)], [ContractViolation], Int) {
        guard let first = payload.first(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }) else {
            throw ContractViolation("empty payload; expected a JSON object or an array of objects")
        }
        let json = json ?? decoder
        switch first {
        case UInt8(ascii: "{"):
            do {
                return ([(0, try json.decodePayload(Item.self, from: payload))], [], 1)
            } catch {
                throw ContractViolation.from(error)
            }
        case UInt8(ascii: "["):
            let items: [BatchItem<Item>]
            do { items = try json.decodePayload([BatchItem<Item>].self, from: payload) } catch { throw ContractViolation.from(error) }
            guard !items.isEmpty else { throw ContractViolation("empty batch") }
            guard items.count <= IngestPipeline.maxBatchItems else {
                throw ContractViolation("batch of \(items.count) items exceeds the limit of \(IngestPipeline.maxBatchItems)")
            }
            var accepted: [(Int, Item)] = []
            var failures: [ContractViolation] = []
            for (index, item) in items.enumerated() {
                switch item.result {
                case .success(let value): accepted.append((index, value))
                case .failure(let violation): failures.append(violation.asBatchItem(index))
                }
            }
            return (accepted, failures, items.count)
        default:
            throw ContractViolation("payload must be a JSON object or an array of objects")
        }
    }

    private func decodeUploads<Body: EventBody>(
        _ payload: Data, _: Body.Type, deviceId: String, receivedAt: Timestamp
    ) throws -> ([NormalizedEvent], [ContractViolation], Int) {
        let (items, failures, total) = try decodeItems(payload, DeviceUpload<Body>.self)
        var allFailures = failures
        var events: [NormalizedEvent] = []
        events.reserveCapacity(items.count)
        try normalizer.withLock { normalizer in
            for (index, upload) in items {
                guard let ts = upload.ts ?? (Body.kind == .profile ? receivedAt : nil) else {
                    allFailures.append(ContractViolation(field: total > 1 ? "items[\(index)].ts" : "ts", "required field is missing"))
                    continue
                }
                events.append(try normalizer.make(upload.body, deviceId: deviceId, deviceEventId: upload.id, ts: ts, receivedAt: receivedAt))
            }
        }
        return (Self.ordered(events), allFailures, total)
    }

    private func decodeSnapshots(_ payload: Data, deviceId: String, receivedAt: Timestamp) throws -> ([NormalizedEvent], [ContractViolation], Int) {
        let (items, failures, total) = try decodeItems(payload, DeviceUpload<SensorSnapshot>.self)
        var allFailures = failures
        var events: [NormalizedEvent] = []
        try normalizer.withLock { n in
            for (index, upload) in items {
                guard let ts = upload.ts else {
                    allFailures.append(ContractViolation(field: total > 1 ? "items[\(index)].ts" : "ts", "required field is missing"))
                    continue
                }
                let snapshot = upload.body
                func partId(_ kind: EventKind) -> String? { upload.id.map { "\($0):\(kind.rawValue)" } }
                if let location = snapshot.location {
                    events.append(try n.make(location, deviceId: deviceId, deviceEventId: partId(.location), ts: ts, receivedAt: receivedAt))
                }
                if let motion = snapshot.motion {
                    events.append(try n.make(motion, deviceId: deviceId, deviceEventId: partId(.motion), ts: ts, receivedAt: receivedAt))
                }
                if let health = snapshot.health, !health.isEmpty {
                    events.append(try n.make(health, deviceId: deviceId, deviceEventId: partId(.health), ts: ts, receivedAt: receivedAt))
                }
                if let state = snapshot.state, !state.isEmpty {
                    events.append(try n.make(state, deviceId: deviceId, deviceEventId: partId(.state), ts: ts, receivedAt: receivedAt))
                }
            }
        }
        return (Self.ordered(events), allFailures, total)
    }

    private func decodeOwnTracks(_ message: MQTTMessage, levels: [Substring], receivedAt: Timestamp) throws -> ([NormalizedEvent], [ContractViolation], Int) {
        guard levels.count == 3 || (levels.count == 4 && levels[3] == "event") else {
            throw ContractViolation("not an OwnTracks location or event topic")
        }
        let deviceId = "\(levels[1])-\(levels[2])"
        guard Identifier.isValid(deviceId) else {
            throw ContractViolation(field: "topic", "OwnTracks user and device must form an id of [A-Za-z0-9_-]{1,64}")
        }
        let origin = OwnTracksOrigin(user: String(levels[1]), device: String(levels[2]))
        let json = JSONDecoder()
        json.userInfo = [.ownTracksOrigin: origin]
        let (items, failures, total) = try decodeItems(message.payload, OwnTracksEnvelope.self, using: json)
        var events: [NormalizedEvent] = []
        try normalizer.withLock { n in
            for (_, envelope) in items {
                switch envelope.message {
                case .location(let ts, let location, let state, let motion):
                    events.append(try n.make(location, deviceId: deviceId, deviceEventId: nil, ts: ts, receivedAt: receivedAt))
                    if let state { events.append(try n.make(state, deviceId: deviceId, deviceEventId: nil, ts: ts, receivedAt: receivedAt)) }
                    if let motion { events.append(try n.make(motion, deviceId: deviceId, deviceEventId: nil, ts: ts, receivedAt: receivedAt)) }
                case .transition(let ts, let transition):
                    events.append(try n.make(transition, deviceId: deviceId, deviceEventId: nil, ts: ts, receivedAt: receivedAt))
                case .lastWill(let ts):
                    events.append(
                        try n.make(DeviceOffline(reason: "lwt"), deviceId: deviceId, deviceEventId: nil, ts: ts ?? receivedAt, receivedAt: receivedAt))
                case .ignored:
                    runtime.counters.increment("ownTracksIgnored")
                }
            }
        }
        return (Self.ordered(events), failures, total)
    }

    /// `ts` order per device; a stable sort keeps upload order for equal times.
    static func ordered(_ events: [NormalizedEvent]) -> [NormalizedEvent] {
        events.enumerated().sorted { ($0.element.ts, $0.offset) < ($1.element.ts, $1.offset) }.map(\.element)
    }

    // MARK: Storing and republishing

    private func accept(_ events: [NormalizedEvent]) throws {
        var events = events
        if let privacy { events.removeAll { privacy.isErased($0.deviceId, at: $0.ts) } }
        guard !events.isEmpty else { return }
        let inserted = try store.insert(events)
        runtime.counters.increment("accepted", by: inserted.count)
        runtime.counters.increment("duplicates", by: events.count - inserted.count)
        for (rowID, event) in inserted { republish(event, rowID: rowID) }
    }

    /// Republishes an event; its row counts as acknowledged once every earlier one is too.
    func republish(_ event: NormalizedEvent, rowID: Int64) {
        outbox.withLock { $0.sent(rowID) }
        let outgoing = MQTTOutgoing(topic: topics.event(event.deviceId, event.kind), payload: event.payload, qos: .atLeastOnce, retain: event.retain)
        runtime.client.publish(outgoing) { [self] result in
            switch result {
            case .success:
                outbox.withLock { $0.acknowledged(rowID) }
            case .failure(let error):
                // Stays above the watermark, so it is sent again at the next start.
                runtime.logger.warning("republish failed", metadata: [LogKey.error: "\(error)", LogKey.deviceId: "\(event.deviceId)"])
            }
        }
    }

    /// Records the acknowledged watermark in the store; returns how many events it advanced by.
    @discardableResult
    func flushAcknowledged() -> Int {
        let (watermark, advanced) = outbox.withLock { $0.takeProgress() }
        guard let watermark, advanced > 0 else { return 0 }
        do {
            try store.markAcknowledged(upTo: watermark)
            runtime.counters.increment("republished", by: advanced)
        } catch {
            outbox.withLock { $0.restore(advanced) }
            runtime.logger.error("cannot record acknowledgements", metadata: [LogKey.error: "\(error)"])
        }
        return advanced
    }
}

extension ContractViolation {
    /// Names the field inside a batch: the decoder's path starts at the item index (`[3].lat` → `items[3].lat`).
    func asBatchItem(_ index: Int) -> ContractViolation {
        guard let field else { return ContractViolation(field: "items[\(index)]", reason) }
        return ContractViolation(field: field.hasPrefix("[") ? "items" + field : "items[\(index)].\(field)", reason)
    }
}
