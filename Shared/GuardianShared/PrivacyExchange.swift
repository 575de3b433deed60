import Foundation
import MQTT

/// One privacy request as a client makes it (the CLI, the family console): the running instances
/// that must answer (from their retained presence), the request, and every receipt and export that
/// comes back in time.
public struct PrivacyExchange: Sendable {
    /// The services that hold data about devices, and whether each owns devices by shard.
    public static let dataServices: [String: Bool] = [
        "ingest": false, "geofence": true, "predictor": false, "timeline": true, "command-router": true, "notifier": false,
    ]

    /// One running instance that must answer for the device.
    public struct Instance: Hashable, Comparable, Sendable {
        public var service: String
        public var instance: String
        public static func < (a: Instance, b: Instance) -> Bool { (a.service, a.instance) < (b.service, b.instance) }
    }

    public struct Outcome: Sendable {
        public var request: PrivacyRequest
        public var requester: String
        public var expected: Set<Instance>
        public var receipts: [Instance: PrivacyReceipt]
        public var exports: [Instance: PrivacyExport]

        public var missing: [Instance] { expected.filter { receipts[$0] == nil }.sorted() }
        public var refused: [Instance] { receipts.filter { $0.value.status == .refused }.map(\.key).sorted() }
    }

    let client: MQTTClient
    let topics: Topics
    let requester: String

    public init(client: MQTTClient, topics: Topics, requester: String) {
        self.client = client
        self.topics = topics
        self.requester = requester
    }

    /// Asks about `deviceId` and waits for every expected instance's receipt (and, for an export,
    /// its export) until `timeout`.
    public func ask(_ action: PrivacyRequest.Action, deviceId: String, timeout: Duration) async throws -> Outcome {
        let request = PrivacyRequest(id: "\(action.rawValue)-\(UUID().uuidString.prefix(13).lowercased())", action: action, deviceId: deviceId)
        let requestTopic = topics.privacyRequests(requester)
        let receiptsFilter = "\(topics.prefix)/privacy/receipts/\(requester)/\(request.id)/+/+"
        let exportsFilter = "\(topics.prefix)/privacy/exports/\(requester)/\(request.id)/+/+"
        let (events, sink) = AsyncStream<MQTTMessage>.makeStream()
        var subscriptions: [UInt32] = []
        defer { subscriptions.forEach(client.unsubscribe(id:)) }
        for filter in [topics.allPresence, receiptsFilter, exportsFilter, requestTopic] {
            subscriptions.append(try await client.subscribe(filter) { sink.yield($0) })
        }
        // The request comes back to us after the retained presence: then the instances are known.
        try await client.publish(MQTTOutgoing(topic: requestTopic, payload: GuardianJSON.encode(request)))
        let deadline = Task {
            try? await Task.sleep(for: timeout)
            sink.finish()
        }
        defer { deadline.cancel() }

        var outcome = Outcome(request: request, requester: requester, expected: [], receipts: [:], exports: [:])
        var online: Set<Instance> = [], instancesKnown = false
        var parts: [Instance: [PrivacyExport]] = [:]
        for await message in events {
            let levels = topics.levels(of: message.topic) ?? []
            if levels.count == 3, levels[0] == "services", let sharded = Self.dataServices[String(levels[1])] {
                guard let presence = try? JSONDecoder().decode(Presence.self, from: message.payload) else { continue }
                let instance = Instance(service: String(levels[1]), instance: String(levels[2]))
                let answers = !sharded || (presence.shard.flatMap(Shard.init)?.owns(deviceId: deviceId) ?? true)
                if presence.status == .online && answers { online.insert(instance) } else { online.remove(instance) }
                if instancesKnown { outcome.expected = online }
            } else if message.topic == requestTopic {
                instancesKnown = true
                outcome.expected = online
            } else if levels.count == 6, levels[0] == "privacy" {
                let instance = Instance(service: String(levels[4]), instance: String(levels[5]))
                if levels[1] == "receipts", let receipt = try? JSONDecoder().decode(PrivacyReceipt.self, from: message.payload) {
                    outcome.receipts[instance] = receipt
                } else if levels[1] == "exports", let export = try? JSONDecoder().decode(PrivacyExport.self, from: message.payload) {
                    parts[instance, default: []].append(export)
                    outcome.exports[instance] = PrivacyExport.joined(parts[instance]!)
                }
            }
            if instancesKnown && outcome.missing.isEmpty
                && (action == .forget || outcome.expected.allSatisfy { outcome.exports[$0] != nil || outcome.receipts[$0]?.status == .refused })
            {
                break
            }
        }
        return outcome
    }

    /// The retained family `familyId`, waiting at most `timeout` for the broker to send it.
    public func family(_ familyId: String, timeout: Duration) async throws -> Family? {
        let (events, sink) = AsyncStream<MQTTMessage>.makeStream()
        let id = try await client.subscribe(topics.family(familyId)) { sink.yield($0) }
        defer { client.unsubscribe(id: id) }
        let deadline = Task {
            try? await Task.sleep(for: timeout)
            sink.finish()
        }
        defer { deadline.cancel() }
        for await message in events where !message.payload.isEmpty {
            return try JSONDecoder().decodePayload(Family.self, from: message.payload)
        }
        return nil
    }
}
