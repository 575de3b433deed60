import Foundation
#if canImport(Glibc)
import Glibc
#endif
import GuardianShared
import GuardianTestSupport
import MQTT
import Synchronization
import Testing

/// How many hostile payloads each service gets, and how often a valid message is slipped in between.
enum FuzzVolume {
    static let badPayloads = Int(ProcessInfo.processInfo.environment["GUARDIAN_FUZZ_COUNT"] ?? "") ?? 100_000
    /// One valid message after every `validEvery` bad ones.
    static let validEvery = 500
    static let oversizedBodies = 3
}

/// One bad message: where it goes, what it carries and how it was broken.
struct BadMessage {
    var topic: String
    var payload: Data
    var properties = MQTTProperties()
    var how: HostileMutation
}

/// An input topic of a service and how to make payloads that break its contract.
struct HostileTopic: Sendable {
    var label: String
    var weight: Int
    /// The topic for an id (the id level may be the device, user, zone or family).
    var topic: @Sendable (String) -> String
    /// Valid ids to address; the topic id tricks replace them.
    var ids: [String]
    var schema: HostileSchema
    /// The payload field that must repeat the topic's id.
    var idField: String?
    /// Whether the service validates the topic's id level (false for fixed topics).
    var topicHasId = true
    var emptyIsValid = false
    /// A top-level array is a valid shape (ingest batches, feature arrays).
    var arrayIsValid = false
    var properties = MQTTProperties()
    /// Ids for the topic's id level that break the id rule (and that the broker accepts in a topic).
    var badTopicIds = HostileValues.badTopicIds
    /// More ways to break this topic's messages (given a valid id), tried now and then.
    var custom: (@Sendable (inout SeededRandom, String) -> BadMessage?)?

    /// A message guaranteed to break this topic's contract.
    func bad(_ rng: inout SeededRandom) -> BadMessage {
        let id = rng.pick(ids)
        var valid = schema.valid(&rng)
        if let idField { valid[idField] = .string(id) }
        func message(_ payload: Data, _ how: HostileMutation, topicId: String? = nil) -> BadMessage {
            BadMessage(topic: topic(topicId ?? id), payload: payload, properties: properties, how: how)
        }
        let roll = rng.int(0...99)
        switch roll {
        case 0..<6:
            return message(HostileMutator.randomBytes(&rng), .randomBytes)
        case 6..<9:
            let scalars: [HJSON] = [.string("location"), .number(42), .bool(true), .null, .raw("\"\\ud800\""), .string(String(repeating: "[", count: 600))]
            let shapes = arrayIsValid ? scalars : scalars + [.array([valid]), .array([])]
            return message(rng.pick(shapes).data, .topLevel)
        case 9..<13 where topicHasId:
            return message(valid.data, .topicId, topicId: rng.pick(badTopicIds))
        case 13..<16 where idField != nil:
            var other = valid
            other[idField!] = .string(rng.pick(ids.filter { $0 != id } + ["someone-else"]))
            return message(other.data, .mismatch)
        case 16..<21:
            return message(HostileMutator.truncated(valid.text, &rng), .truncated)
        case 21..<23:
            let field = rng.pick(schema.fields.map(\.name) + ["junk"])
            return message(HostileMutator.crashNesting(valid, field: field), .crashNesting)
        case 23 where !emptyIsValid:
            return message(Data(), .emptyPayload)
        case 24..<30 where custom != nil:
            if let message = custom!(&rng, id) { return message }
        default:
            break
        }
        if let (broken, how) = HostileMutator.mutateField(valid, schema: schema, &rng) { return message(broken.data, how) }
        return message(HostileMutator.randomBytes(&rng), .randomBytes)
    }
}

/// Picks topics by weight. Every service reads privacy requests, so every set also sends hostile
/// ones (about one in twenty messages).
struct HostileTopicSet: Sendable {
    var topics: [HostileTopic]

    init(topics: [HostileTopic]) {
        let total = topics.map(\.weight).reduce(0, +)
        self.topics = topics + [PrivacyHostility.request(weight: max(1, total / 20))]
    }

    func bad(_ rng: inout SeededRandom) -> BadMessage {
        var roll = rng.int(0...(topics.map(\.weight).reduce(0, +) - 1))
        for topic in topics {
            if roll < topic.weight { return topic.bad(&rng) }
            roll -= topic.weight
        }
        fatalError("weights")
    }
}

/// A real broker, one service in-process, a publisher and an observer that counts what the service
/// reports on `guardian/errors/{service}` and collects its outputs.
final class FuzzRun: @unchecked Sendable {
    let service: String
    let broker: TestBroker
    let data: TemporaryDirectory
    let observer: MQTTClient
    let publisher: MQTTClient
    let started = ContinuousClock.now

    private let inbox = Inbox()
    private let window = PublishWindow(limit: 1000)
    private let hooksResumed = Atomic<Bool>(false)
    private var task: Task<Void, any Error>?

    private(set) var expected: [String: Int] = [:]
    private(set) var sentBad = 0
    private(set) var sentValid = 0
    private(set) var mutations: [HostileMutation: Int] = [:]

    init(service: String, outputs filters: [String]) async throws {
        self.service = service
        broker = try TestBroker()
        data = try TemporaryDirectory()
        observer = try await broker.connectedClient("fuzz-observer")
        publisher = try await broker.connectedClient("fuzz-publisher")
        try await observer.subscribe("guardian/errors/\(service)") { [inbox, service] message in
            guard let report = try? JSONDecoder().decode(ErrorReport.self, from: message.payload), report.service == service, !report.reason.isEmpty
            else {
                inbox.malformedReports.withLock { $0.append(String(decoding: message.payload.prefix(300), as: UTF8.self)) }
                inbox.reportTotal.add(1, ordering: .relaxed)
                return
            }
            inbox.reports.withLock { $0[HostileReportKey.make(report: report), default: 0] += 1 }
            inbox.reportTotal.add(1, ordering: .relaxed)
        }
        for filter in filters {
            try await observer.subscribe(filter) { [inbox] message in inbox.outputs.withLock { $0.append(message) } }
        }
        try await observer.subscribe("guardian/services/\(service)/test") { [inbox] message in
            inbox.lastPresence.withLock { $0 = message.payload }
        }
        ThrowHooks.suspend()
    }

    /// The environment a service reads, pointed at this run's broker and data directory.
    func config(_ extra: [String: String] = [:]) throws -> GuardianConfig {
        try broker.serviceConfig(service: service, dataDirectory: data.url, extra: extra)
    }

    /// Runs the service and waits until its presence says online (its subscriptions are in place).
    func start(_ run: @escaping @Sendable () async throws -> Void) async throws {
        task = Task { [inbox] in
            defer { inbox.runEnded.store(true, ordering: .relaxed) }
            try await run()
        }
        let deadline = ContinuousClock.now + .seconds(120)
        while presenceStatus != "online" {
            guard ContinuousClock.now < deadline else { throw TestBrokerError.cannotStart("\(service) did not come online") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    var presence: [String: Any]? {
        inbox.lastPresence.withLock { $0 }.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
    }

    var presenceStatus: String? { presence?["status"] as? String }

    /// Publishes without waiting for the acknowledgement, at most `limit` in flight.
    func publish(_ topic: String, _ payload: Data, properties: MQTTProperties = MQTTProperties(), retain: Bool = false) async {
        await window.acquire()
        publisher.publish(MQTTOutgoing(topic: topic, payload: payload, retain: retain, properties: properties)) { [window, inbox] result in
            window.release()
            if case .failure(let error) = result { inbox.publishFailures.withLock { $0.append("\(topic): \(error)") } }
        }
    }

    func sendBad(_ message: BadMessage) async {
        expected[HostileReportKey.make(topic: message.topic, payload: message.payload), default: 0] += 1
        sentBad += 1
        mutations[message.how, default: 0] += 1
        await publish(message.topic, message.payload, properties: message.properties)
    }

    /// A payload the service must accept (or answer), though it also leads to one error report
    /// (an ingest batch whose other items are bad).
    func expectReport(topic: String, payload: Data) {
        expected[HostileReportKey.make(topic: topic, payload: payload), default: 0] += 1
    }

    func sendValid(_ topic: String, _ payload: Data, properties: MQTTProperties = MQTTProperties()) async {
        sentValid += 1
        await publish(topic, payload, properties: properties)
    }

    /// The fuzz loop: `total` bad messages from `bad`, the oversized bodies among them, and a valid
    /// message from `valid` after every `validEvery` bad ones.
    func flood(
        seed: UInt64, oversizedTopic: String, bad: (inout SeededRandom) -> BadMessage, valid: (Int, inout SeededRandom) async -> Void
    ) async {
        var rng = SeededRandom(seed: seed)
        let total = FuzzVolume.badPayloads
        let oversizedAt = Set((1...FuzzVolume.oversizedBodies).map { $0 * total / (FuzzVolume.oversizedBodies + 1) })
        var validIndex = 0
        for i in 0..<total {
            if oversizedAt.contains(i) {
                await sendBad(BadMessage(topic: oversizedTopic, payload: HostileMutator.oversized(i), how: .oversized))
            } else {
                await sendBad(bad(&rng))
            }
            if i % FuzzVolume.validEvery == FuzzVolume.validEvery / 2 {
                await valid(validIndex, &rng)
                validIndex += 1
            }
        }
    }

    var reportCount: Int { inbox.reportTotal.load(ordering: .relaxed) }
    var outputMessages: [MQTTMessage] { inbox.outputs.withLock { $0 } }
    func outputs(on topic: String) -> [MQTTMessage] { outputMessages.filter { $0.topic == topic } }

    /// Waits until `predicate` holds over the outputs (or the generous ceiling passes).
    @discardableResult
    func waitForOutputs(timeout: Duration = .seconds(120), _ predicate: ([MQTTMessage]) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if predicate(outputMessages) { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return predicate(outputMessages)
    }

    /// Waits for every expected report, then checks they are exactly the payloads sent as bad, one
    /// report each (by topic and excerpt), and that the service is still running.
    func checkReports(timeout: Duration = .seconds(900), sourceLocation: SourceLocation = #_sourceLocation) async {
        let want = expected.values.reduce(0, +)
        // Until every report is in, the ceiling passed, the service stopped, or reports stopped coming for 120 s.
        let deadline = ContinuousClock.now + timeout
        var (seen, lastProgress) = (reportCount, ContinuousClock.now)
        while reportCount < want && ContinuousClock.now < deadline && !inbox.runEnded.load(ordering: .relaxed)
            && ContinuousClock.now - lastProgress < .seconds(120)
        {
            try? await Task.sleep(for: .milliseconds(50))
            if reportCount != seen { (seen, lastProgress) = (reportCount, ContinuousClock.now) }
        }
        try? await Task.sleep(for: .milliseconds(500))  // anything extra?
        let got = inbox.reports.withLock { $0 }
        var missing: [String] = []
        var unexpected: [String] = []
        for (key, count) in expected where (got[key] ?? 0) < count { missing.append("\(count - (got[key] ?? 0))× \(key.prefix(200))") }
        for (key, count) in got where (expected[key] ?? 0) < count { unexpected.append("\(count - (expected[key] ?? 0))× \(key.prefix(200))") }
        let malformed = inbox.malformedReports.withLock { $0 }
        #expect(reportCount == want, "\(service): \(reportCount) error reports for \(want) bad payloads", sourceLocation: sourceLocation)
        #expect(missing.isEmpty, "\(service): \(missing.count) bad payloads not reported, e.g. \(missing.prefix(5))", sourceLocation: sourceLocation)
        #expect(unexpected.isEmpty, "\(service): \(unexpected.count) reports for payloads not sent as bad, e.g. \(unexpected.prefix(5))", sourceLocation: sourceLocation)
        #expect(malformed.isEmpty, "\(service): malformed error reports, e.g. \(malformed.prefix(3))", sourceLocation: sourceLocation)
        #expect(inbox.publishFailures.withLock { $0 }.isEmpty, "\(service): publishes failed: \(inbox.publishFailures.withLock { $0.prefix(3) })", sourceLocation: sourceLocation)
        let ended = inbox.runEnded.load(ordering: .relaxed)
        #expect(!ended, "\(service) stopped running", sourceLocation: sourceLocation)
    }

    /// Checks the service still says it is online and counts what it rejected (plus `otherRejections`
    /// the service counts under the same name).
    func checkAlive(otherRejections: Int = 0, sourceLocation: SourceLocation = #_sourceLocation) async {
        // Presence refreshes every second (GUARDIAN_STATS_INTERVAL=1): wait for one sent after the flood.
        let want = expected.values.reduce(0, +) + otherRejections
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline {
            if let stats = presence?["stats"] as? [String: Any], (stats["rejected"] as? Int ?? 0) >= want { break }
            try? await Task.sleep(for: .milliseconds(100))
        }
        #expect(presenceStatus == "online", "\(service) presence: \(presenceStatus ?? "none")", sourceLocation: sourceLocation)
        let rejected = (presence?["stats"] as? [String: Any])?["rejected"] as? Int
        #expect(rejected == want, "\(service) counts \(rejected ?? -1) rejected, expected \(want)", sourceLocation: sourceLocation)
        let ended = inbox.runEnded.load(ordering: .relaxed)
        #expect(!ended, "\(service) stopped running", sourceLocation: sourceLocation)
    }

    var summary: String {
        let seconds = (ContinuousClock.now - started).components.seconds
        let kinds = mutations.sorted { $0.value > $1.value }.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ")
        return "\(service): \(sentBad) bad payloads (\(kinds)), \(sentValid) valid messages, \(reportCount) error reports in \(seconds) s"
    }

    deinit { ThrowHooks.resume(once: hooksResumed) }

    func shutdown() async {
        ThrowHooks.resume(once: hooksResumed)
        task?.cancel()
        _ = try? await task?.value
        await publisher.shutdown()
        await observer.shutdown()
        broker.stop()
    }
}


extension MQTTMessage {
    var json: [String: Any]? { try? JSONSerialization.jsonObject(with: payload) as? [String: Any] }
}

/// A valid device event as ingest republishes it.
func eventJSON(id: String, deviceId: String, ts: Timestamp, _ body: [(String, HJSON)]) -> HJSON {
    .object([("id", .string(id)), ("deviceId", .string(deviceId)), ("ts", .string(ts.rfc3339)), ("receivedAt", .string(ts.rfc3339))] + body)
}

/// Common fields of `guardian/events/{id}/{kind}` payloads.
enum EventFields {
    static func envelope(_ body: [HostileField]) -> HostileSchema {
        HostileSchema(
            [
                HostileField("id", .text(max: 128)) { rng in .string("e-\(rng.int(0...999_999))") },
                HostileField("deviceId", .id) { _ in .string("fz-1") },
                HostileField("ts", .timestamp) { rng in .string(Timestamp(milliseconds: 1_795_000_000_000 + Int64(rng.int(0...86_400_000))).rfc3339) },
                HostileField("receivedAt", .timestamp) { rng in .number(Double(1_795_000_000 + rng.int(0...86_400))) },
            ] + body)
    }

    static let location: [HostileField] = [
        HostileField("lat", .number(min: -90, max: 90)) { rng in .number(rng.double(-89...89)) },
        HostileField("lon", .number(min: -180, max: 180)) { rng in .number(rng.double(-179...179)) },
        HostileField("acc", .number(min: 0, max: 1e7), required: false) { rng in .number(rng.double(0...50)) },
        HostileField("alt", .number(min: -1e5, max: 1e6), required: false) { rng in .number(rng.double(0...500)) },
        HostileField("speed", .number(min: 0, max: 1e5), required: false) { rng in .number(rng.double(0...30)) },
        HostileField("course", .number(min: 0, max: 360, maxExclusive: true), required: false) { rng in .number(rng.double(0...359)) },
        HostileField(
            "ownTracks",
            .object([
                HostileField("user", .id) { _ in .string("alice") },
                HostileField("device", .id) { _ in .string("phone") },
            ]), required: false
        ) { _ in .object([("user", .string("alice")), ("device", .string("phone"))]) },
    ]

    static let motion: [HostileField] = [
        HostileField("activity", .choice(["stationary", "walking", "running", "cycling", "automotive", "unknown"])) { rng in
            .string(rng.pick(["stationary", "walking", "running", "cycling", "automotive", "unknown"]))
        },
        HostileField("confidence", .choice(["low", "medium", "high"]), required: false) { rng in .string(rng.pick(["low", "medium", "high"])) },
    ]

    static let profile: [HostileField] = [
        HostileField("timezone", .timeZone, extraBad: [.string(String(repeating: "A", count: 65)), .string("")]) { rng in
            .string(rng.pick(["Europe/Paris", "UTC", "America/New_York", "Asia/Tokyo"]))
        },
        HostileField("role", .choice(["adult", "parent", "child"])) { rng in .string(rng.pick(["adult", "parent", "child"])) },
        HostileField("name", .text(max: 128), required: false) { _ in .string("Sam") },
    ]

    static let family = HostileSchema([
        HostileField(
            "parents", .ids,
            extraBad: [.array((0...16).map { .string("p\($0)") })]
        ) { rng in .array([.string("fz-parent-\(rng.int(0...9))")]) },
        HostileField(
            "children",
            .objects([
                HostileField("deviceId", .id) { rng in .string("fz-child-\(rng.int(0...9))") },
                HostileField("name", .text(max: 64)) { _ in .string("Kiddo") },
            ]),
            extraBad: [.array((0...32).map { .object([("deviceId", .string("c\($0)")), ("name", .string("C\($0)"))]) })]
        ) { rng in .array([.object([("deviceId", .string("fz-child-\(rng.int(0...9))")), ("name", .string("Kiddo"))])]) },
    ])

    static let deviceIds = (1...40).map { "fz-\($0)" }
}

/// What the observer received, shared with its handlers.
final class Inbox: Sendable {
    let reports = Mutex<[String: Int]>([:])
    let reportTotal = Atomic<Int>(0)
    let malformedReports = Mutex<[String]>([])
    let outputs = Mutex<[MQTTMessage]>([])
    let lastPresence = Mutex<Data?>(nil)
    let publishFailures = Mutex<[String]>([])
    let runEnded = Atomic<Bool>(false)
}

/// Swift Testing captures a backtrace at every `throw` (to show where an error came from) through the
/// runtime's `_swift_willThrow` hooks. The services throw at least once per rejected payload, and those
/// captures took half of each fuzz run, a cost the services never pay outside tests. The hooks are
/// cleared while a fuzz run is under way and put back after it (`SWT_SWIFT_ERROR_BACKTRACING_ENABLED=0`
/// does the same for a whole test run).
enum ThrowHooks {
    private static let state = Mutex<(runs: Int, saved: [Int])>((0, []))
    private static let names = ["_swift_willThrow", "_swift_willThrowTypedImpl"]

    private static func slots() -> [UnsafeMutablePointer<Int>] {
        let process = dlopen(nil, RTLD_NOW)
        return names.compactMap { dlsym(process, $0)?.assumingMemoryBound(to: Int.self) }
    }

    static func suspend() {
        state.withLock { s in
            s.runs += 1
            guard s.runs == 1 else { return }
            let slots = slots()
            s.saved = slots.map(\.pointee)
            for slot in slots { slot.pointee = 0 }
        }
    }

    static func resume(once flag: borrowing Atomic<Bool>) {
        guard !flag.exchange(true, ordering: .relaxed) else { return }
        state.withLock { s in
            guard s.runs > 0 else { return }
            s.runs -= 1
            guard s.runs == 0 else { return }
            for (slot, value) in zip(slots(), s.saved) { slot.pointee = value }
        }
    }
}
