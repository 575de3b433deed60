import Foundation
import GuardianCommandRouter
import GuardianIngest
import GuardianShared
import GuardianTestSupport
import Logging
import MQTT
import Testing

/// The broker's accounts and roles (dynamic-security plugin) on the real mosquitto, set up as a
/// first start is, with generated passwords: device `phone-alice`, child `tablet-sam`, parent
/// `parent-alex`, OwnTracks user `alice`, one account per service. Every refusal is checked beside the same action on the actor's own id, which succeeds,
/// so that a test can fail.
@Suite("access control over the real broker")
struct AccessControlTests {
    /// What mosquitto 2.0.11 answers (MQTT 5 reason code) to a PUBLISH it refuses, and to any CONNECT
    /// it refuses: no user, unknown user or wrong password alike (never 134, "bad user name or password").
    static let notAuthorized: Int32 = 135

    /// For clients the broker is expected to refuse (the MQTT layer logs refusals as errors).
    static var silent: Logger {
        var logger = Logger(label: "guardian.test.refused")
        logger.logLevel = .critical
        return logger
    }

    static let location = #"{"ts": 1795000000, "lat": 1, "lon": 1}"#

    /// The error of one QoS 1 publish, nil when the broker accepted it.
    static func publishError(_ client: MQTTClient, _ topic: String, _ payload: String = "{}", retain: Bool = false) async -> MQTTError? {
        do {
            try await client.publish(topic, payload: Data(payload.utf8), retain: retain)
            return nil
        } catch {
            return error
        }
    }

    /// Expects the broker to refuse each topic with "not authorized" (PUBACK 135).
    static func expectRefused(
        _ client: MQTTClient, _ topics: [String], payload: String = "{}", retain: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        for topic in topics {
            let error = await publishError(client, topic, payload, retain: retain)
            #expect(error == .publishRefused(topic: topic, reasonCode: notAuthorized), "publish to \(topic)", sourceLocation: sourceLocation)
        }
    }

    /// Waits for the command-router's reply to `commandId` on a collector of replies.
    static func reply(_ replies: MessageCollector, _ commandId: String) async -> CommandReply? {
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline {
            if let found = replies.all.compactMap({ try? JSONDecoder().decode(CommandReply.self, from: $0.payload) }).first(where: { $0.commandId == commandId }) {
                return found
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    static func topics(_ collector: MessageCollector) -> Set<String> { Set(collector.all.map(\.topic)) }

    // MARK: Devices

    @Test("a device cannot publish under another device's id (PUBACK 135) and ingest passes on only its own uploads")
    func deviceCannotPublishAsAnother() async throws {
        let broker = try TestBroker(access: .secured)
        let data = try TemporaryDirectory()
        let admin = try await broker.connectedClient("admin")
        let events = try await MessageCollector(admin, "guardian/events/#")
        let ingestErrors = try await MessageCollector(admin, "guardian/errors/ingest")
        let ingest = try IngestService(config: broker.serviceConfig(service: "ingest", dataDirectory: data.url), logger: .quiet)
        let task = try await startInProcess(ingest, name: "ingest", observer: admin)
        let alice = try await broker.connectedClient("phone-alice")

        let uploads = ["location", "motion", "health", "state", "snapshot", "budget", "usage", "profile"].map { "guardian/devices/tablet-sam/\($0)" }
        await Self.expectRefused(alice, uploads, payload: Self.location)
        await Self.expectRefused(alice, ["guardian/devices/tablet-sam/profile"], payload: #"{"timezone": "UTC", "role": "parent"}"#, retain: true)
        await Self.expectRefused(
            alice,
            [
                "owntracks/tablet-sam/phone", "owntracks/tablet-sam/phone/event", "guardian/children/tablet-sam/status", "guardian/children/tablet-sam/ack",
                "guardian/timeline/tablet-sam/generate", "guardian/timeline/tablet-sam/feedback",
            ])
        // Its own id works, and is all ingest ever sees.
        try await alice.publish("guardian/devices/phone-alice/location", payload: Data(Self.location.utf8))
        await events.wait(for: 1)
        #expect(await events.settle(.milliseconds(400)).map(\.topic) == ["guardian/events/phone-alice/location"])
        #expect(ingest.counters["accepted"] == 1 && ingest.counters["rejected"] == 0)
        #expect(ingestErrors.all.isEmpty)

        await alice.shutdown()
        await stopInProcess(task)
        await admin.shutdown()
        broker.stop()
    }

    @Test("a device cannot read another device's events, notifications, policy, command, geofence, predictions, nudges or days; its own arrive")
    func deviceCannotReadAnother() async throws {
        let broker = try TestBroker(access: .secured)
        let data = try TemporaryDirectory()
        let admin = try await broker.connectedClient("admin")
        let adminEvents = try await MessageCollector(admin, "guardian/events/#")
        let ingest = try IngestService(config: broker.serviceConfig(service: "ingest", dataDirectory: data.url), logger: .quiet)
        let task = try await startInProcess(ingest, name: "ingest", observer: admin)

        let alice = try await broker.connectedClient("phone-alice")
        let sam = try await broker.connectedClient("tablet-sam")
        // Alice asks for everything, and for Sam's topics by name (SUBSCRIBE is always granted).
        let aliceAll = try await MessageCollector(alice, "#")
        var aliceOnSam: [MessageCollector] = []
        for filter in [
            "guardian/events/tablet-sam/#", "guardian/notifications/tablet-sam", "guardian/children/tablet-sam/#", "guardian/geofence/tablet-sam",
            "guardian/predictions/tablet-sam", "guardian/nudges/tablet-sam", "guardian/timeline/tablet-sam/#", "guardian/devices/tablet-sam/#",
            "owntracks/tablet-sam/#",
        ] {
            aliceOnSam.append(try await MessageCollector(alice, filter))
        }
        let samAll = try await MessageCollector(sam, "#")

        // Real messages, each from the user that may send it: Sam's uploads through ingest, and what
        // each service publishes about a device, for both devices.
        try await sam.publish("guardian/devices/tablet-sam/location", payload: Data(Self.location.utf8))
        try await sam.publish("guardian/devices/tablet-sam/profile", payload: Data(#"{"timezone": "Europe/London", "role": "child"}"#.utf8), retain: true)
        let outputs: [(user: String, topic: String, retain: Bool)] = [
            ("notifier", "guardian/notifications/%", false),
            ("command-router", "guardian/children/%/policy", true),
            ("command-router", "guardian/children/%/command", true),
            ("geofence", "guardian/geofence/%", false),
            ("predictor", "guardian/predictions/%", false),
            ("predictor", "guardian/nudges/%", false),
            ("timeline", "guardian/timeline/%/days/2026-11-20", true),
        ]
        var publishers: [String: MQTTClient] = [:]
        for user in Set(outputs.map(\.user)) { publishers[user] = try await broker.connectedClient("\(user)-acl", user: user) }
        for output in outputs {
            for device in ["tablet-sam", "phone-alice"] {
                let topic = output.topic.replacingOccurrences(of: "%", with: device)
                try await publishers[output.user]!.publish(topic, payload: Data(#"{"about": "\#(device)"}"#.utf8), retain: output.retain)
            }
        }
        let expectedOwn = Set(outputs.map { $0.topic.replacingOccurrences(of: "%", with: "phone-alice") })
        let expectedSam = Set(outputs.map { $0.topic.replacingOccurrences(of: "%", with: "tablet-sam") })
        _ = await eventually(.seconds(120)) { Self.topics(aliceAll).isSuperset(of: expectedOwn) && Self.topics(samAll).isSuperset(of: expectedSam) }
        await adminEvents.wait(for: 2)
        _ = await aliceAll.settle(.milliseconds(400))

        // The events exist (admin may read them) ...
        #expect(Self.topics(adminEvents) == ["guardian/events/tablet-sam/location", "guardian/events/tablet-sam/profile"])
        // ... Sam gets what is his, Alice what is hers, and nothing of Sam's.
        #expect(Self.topics(samAll).isSuperset(of: expectedSam))
        // (Presence, guardian/services/+/+, is readable by everyone: it says which instances answer privacy requests.)
        #expect(Self.topics(aliceAll).filter { !$0.hasPrefix("guardian/services/") } == expectedOwn)
        for collector in aliceOnSam { #expect(collector.all.isEmpty, "alice received \(Self.topics(collector))") }
        #expect(!aliceAll.all.contains { $0.topic.contains("tablet-sam") || (String(data: $0.payload, encoding: .utf8) ?? "").contains("tablet-sam") })

        // Retained state is checked on delivery too: a later subscription gets only the reader's own.
        let aliceLater = try await broker.connectedClient("alice-later", user: "phone-alice")
        let samLater = try await broker.connectedClient("sam-later", user: "tablet-sam")
        let aliceRetained = try await MessageCollector(aliceLater, "guardian/+/tablet-sam/#")
        let aliceOwnRetained = try await MessageCollector(aliceLater, "guardian/children/phone-alice/policy")
        let samRetained = try await MessageCollector(samLater, "guardian/+/tablet-sam/#")
        await samRetained.wait(for: 4)
        await aliceOwnRetained.wait(for: 1)
        _ = await aliceRetained.settle(.milliseconds(300))
        #expect(
            Self.topics(samRetained).isSuperset(of: [
                "guardian/children/tablet-sam/policy", "guardian/children/tablet-sam/command", "guardian/timeline/tablet-sam/days/2026-11-20",
                "guardian/devices/tablet-sam/profile",
            ]))
        #expect(Self.topics(aliceOwnRetained) == ["guardian/children/phone-alice/policy"])
        #expect(aliceRetained.all.isEmpty, "alice received \(Self.topics(aliceRetained))")

        for client in [alice, sam, aliceLater, samLater] + Array(publishers.values) { await client.shutdown() }
        await stopInProcess(task)
        await admin.shutdown()
        broker.stop()
    }

    // MARK: Parents and children

    /// A secured broker with two families and the command-router running in-process:
    /// `fam-alex` (parent-alex; child phone-alice "Alice") and `fam-bo` (parent-bo; child tablet-sam "Sam").
    final class Households: @unchecked Sendable {
        let broker = try! TestBroker(access: .secured)
        let data = try! TemporaryDirectory()
        let admin: MQTTClient
        let commands: MessageCollector
        let policies: MessageCollector
        let router: CommandRouterService
        let task: Task<Void, any Error>

        init() async throws {
            admin = try await broker.connectedClient("admin")
            commands = try await MessageCollector(admin, "guardian/children/+/command")
            policies = try await MessageCollector(admin, "guardian/children/+/policy")
            try await admin.publish(
                "guardian/families/fam-alex", payload: GuardianJSON.encode(Family(parents: ["parent-alex"], children: [.init(deviceId: "phone-alice", name: "Alice")])),
                retain: true)
            try await admin.publish(
                "guardian/families/fam-bo", payload: GuardianJSON.encode(Family(parents: ["parent-bo"], children: [.init(deviceId: "tablet-sam", name: "Sam")])),
                retain: true)
            router = try CommandRouterService(config: broker.serviceConfig(service: "command-router", dataDirectory: data.url), logger: .quiet)
            task = try await startInProcess(router, name: "command-router", observer: admin)
        }

        /// Commands and policies published for `device` so far.
        func published(for device: String) -> [String] {
            (commands.all + policies.all).map(\.topic).filter { $0.hasPrefix("guardian/children/\(device)/") }
        }

        func shutdown() async {
            await stopInProcess(task)
            await admin.shutdown()
            broker.stop()
        }
    }

    @Test("a child cannot send a parent's commands or write its own command, policy or family; under its own id the router refuses it")
    func childCannotCommand() async throws {
        let h = try await Households()
        let sam = try await h.broker.connectedClient("tablet-sam")
        let samChildTopics = try await MessageCollector(sam, "guardian/children/tablet-sam/#")
        let samReplies = try await MessageCollector(h.admin, "guardian/parents/tablet-sam/replies")
        let allow = #"{"id": "s1", "command": {"action": "allow"}, "child": "tablet-sam"}"#

        // The broker: not as its parent (or any parent, itself included: a child's role has no
        // parent's rights), not its own command or policy, not the families.
        await Self.expectRefused(
            sam, ["guardian/parents/parent-bo/commands", "guardian/parents/parent-alex/commands", "guardian/parents/tablet-sam/commands"],
            payload: allow)
        await Self.expectRefused(
            sam, ["guardian/children/tablet-sam/command", "guardian/children/tablet-sam/policy"], payload: #"{"version": 99, "restrictions": []}"#, retain: true)
        await Self.expectRefused(
            sam, ["guardian/families/fam-bo"], payload: #"{"parents": ["tablet-sam"], "children": [{"deviceId": "tablet-sam", "name": "Sam"}]}"#,
            retain: true)
        await Self.expectRefused(sam, ["guardian/users/parent-bo/preferences"])

        // Behind the broker, the router refuses commands from a user that is a parent in no family
        // (here sent with admin's rights, as a misconfigured account could).
        try await h.admin.publish("guardian/parents/tablet-sam/commands", payload: Data(#"{"id": "s2", "command": {"action": "allow"}}"#.utf8))
        try await h.admin.publish("guardian/parents/tablet-sam/commands", payload: Data(#"{"id": "s3", "text": "Block all games for 2 hours", "child": "Sam"}"#.utf8))
        for id in ["s2", "s3"] {
            let refused = try #require(await Self.reply(samReplies, id))
            #expect(refused.status == .rejected && refused.reason?.contains("not a parent") == true, "\(refused)")
        }
        _ = await samChildTopics.settle(.milliseconds(300))
        #expect(h.published(for: "tablet-sam").isEmpty)
        #expect(samChildTopics.all.isEmpty)
        #expect(h.router.counters["refused"] == 2 && h.router.counters["accepted"] == 0)

        // Control: Sam's real parent (the CLI acting as parent-bo) is obeyed, and Sam receives it.
        try await h.admin.publish("guardian/parents/parent-bo/commands", payload: Data(#"{"id": "b1", "command": {"action": "shutdown"}, "child": "Sam"}"#.utf8))
        await samChildTopics.wait(for: 2)
        #expect(Self.topics(samChildTopics) == ["guardian/children/tablet-sam/command", "guardian/children/tablet-sam/policy"])

        await sam.shutdown()
        await h.shutdown()
    }

    @Test("a parent cannot command another family's child: the broker lets it through, the router replies rejected and publishes nothing")
    func parentCannotCommandAnotherFamily() async throws {
        let h = try await Households()
        let alex = try await h.broker.connectedClient("parent-alex")
        let sam = try await h.broker.connectedClient("tablet-sam")
        let alice = try await h.broker.connectedClient("phone-alice")
        let replies = try await MessageCollector(alex, "guardian/parents/parent-alex/replies")
        let bosReplies = try await MessageCollector(alex, "guardian/parents/parent-bo/replies")
        let samChildTopics = try await MessageCollector(sam, "guardian/children/tablet-sam/#")
        let aliceChildTopics = try await MessageCollector(alice, "guardian/children/phone-alice/#")

        // Under its own id the broker accepts (no error here); by device id, by name, in words.
        try await alex.publish("guardian/parents/parent-alex/commands", payload: Data(#"{"id": "x1", "command": {"action": "shutdown"}, "child": "tablet-sam"}"#.utf8))
        try await alex.publish("guardian/parents/parent-alex/commands", payload: Data(#"{"id": "x2", "command": {"action": "shutdown"}, "child": "Sam"}"#.utf8))
        try await alex.publish("guardian/parents/parent-alex/commands", payload: Data(#"{"id": "x3", "text": "Block all games for 2 hours", "child": "Sam"}"#.utf8))
        for id in ["x1", "x2", "x3"] {
            let refused = try #require(await Self.reply(replies, id))
            #expect(refused.status == .rejected && refused.reason?.contains("not in your family") == true, "\(refused)")
        }
        // Nor can Alex speak as Sam's parent.
        await Self.expectRefused(alex, ["guardian/parents/parent-bo/commands"], payload: #"{"id": "x4", "command": {"action": "shutdown"}}"#)

        // Control: Alex's own child obeys.
        try await alex.publish("guardian/parents/parent-alex/commands", payload: Data(#"{"id": "a1", "text": "Block all games for 2 hours", "child": "Alice"}"#.utf8))
        #expect(await Self.reply(replies, "a1")?.status == .accepted)
        await aliceChildTopics.wait(for: 2)
        _ = await samChildTopics.settle(.milliseconds(300))
        #expect(Self.topics(aliceChildTopics) == ["guardian/children/phone-alice/command", "guardian/children/phone-alice/policy"])
        #expect(h.published(for: "tablet-sam").isEmpty)
        #expect(samChildTopics.all.isEmpty)
        #expect(h.router.counters["refused"] == 3 && h.router.counters["accepted"] == 1)

        // Replies to the other parent go to that parent only.
        let adminBoReplies = try await MessageCollector(h.admin, "guardian/parents/parent-bo/replies")
        try await h.admin.publish("guardian/parents/parent-bo/commands", payload: Data(#"{"id": "b1", "command": {"action": "warning", "message": "dinner"}}"#.utf8))
        #expect(await Self.reply(adminBoReplies, "b1")?.status == .accepted)
        _ = await bosReplies.settle(.milliseconds(300))
        #expect(bosReplies.all.isEmpty)

        for client in [alex, sam, alice] { await client.shutdown() }
        await h.shutdown()
    }

    @Test("the router answers an activity request only under the asker's own activity-replies/, never on a topic the asker may not write")
    func activityAnswersStayWithTheAsker() async throws {
        let h = try await Households()
        let alex = try await h.broker.connectedClient("parent-alex")
        let errors = try await MessageCollector(h.admin, "guardian/errors/command-router")
        let forged = try await MessageCollector(h.admin, "guardian/#")
        let own = try await MessageCollector(alex, "guardian/parents/parent-alex/activity-replies/#")
        // The broker lets a parent ask under its own id; the router publishes with its own, wider rights.
        let targets = [
            "guardian/children/phone-alice/policy", "guardian/children/tablet-sam/policy", "guardian/children/phone-alice/command",
            "guardian/parents/parent-alex/replies", "guardian/parents/parent-bo/activity-replies/x",
        ]
        for target in targets {
            try await alex.publish(
                MQTTOutgoing(topic: "guardian/parents/parent-alex/activity", payload: Data("{}".utf8), properties: MQTTProperties(responseTopic: target)))
        }
        await errors.wait(for: targets.count)
        #expect(errors.count == targets.count)
        // Control: under its own activity-replies/ it gets an answer.
        try await alex.publish(
            MQTTOutgoing(
                topic: "guardian/parents/parent-alex/activity", payload: Data("{}".utf8),
                properties: MQTTProperties(responseTopic: "guardian/parents/parent-alex/activity-replies/1")))
        let answer = try #require(await own.wait(for: 1).first)
        #expect(answer.topic == "guardian/parents/parent-alex/activity-replies/1")
        #expect((try JSONSerialization.jsonObject(with: answer.payload) as? [String: Any])?["error"] == nil)
        _ = await forged.settle(.milliseconds(200))
        let published = Set(forged.all.map(\.topic))
        #expect(published.isDisjoint(with: targets), "the router published on \(published.intersection(targets))")
        await alex.shutdown()
        await h.shutdown()
    }

    // MARK: Anonymous and wrong credentials

    @Test("anonymous clients, unknown users and wrong passwords are refused at CONNECT with the broker's reason code and get nothing")
    func refusedAtConnect() async throws {
        let broker = try TestBroker(access: .secured)
        let admin = try await broker.connectedClient("admin")
        let cases: [(clientId: String, user: String?, password: String?)] = [
            ("anonymous", nil, nil),
            ("stranger", "stranger", "whatever"),
            ("alice-wrong", "phone-alice", broker.password(for: "tablet-sam")),
            ("alice-empty", "phone-alice", nil),
        ]
        for c in cases {
            var configuration = MQTTConfiguration(host: "127.0.0.1", port: broker.port, username: c.user, password: c.password, clientId: c.clientId, cleanStart: true)
            configuration.reconnectDelayMin = .milliseconds(50)
            configuration.reconnectDelayMax = .milliseconds(200)
            let client = try MQTTClient(configuration: configuration, logger: Self.silent)
            // Registered before connecting: sent at CONNECT if the broker ever accepted it.
            let received = try await MessageCollector(client, "#")
            var failure: MQTTError?
            do { try await client.connect(timeout: .seconds(60)) } catch { failure = error }
            #expect(failure == .connectionRefused(reasonCode: Self.notAuthorized), "\(c.clientId): \(String(describing: failure))")
            #expect(!client.isConnected)
            try await admin.publish("guardian/notifications/phone-alice", payload: Data(#"{"for": "alice"}"#.utf8))
            #expect(await received.settle(.milliseconds(200)).isEmpty)
            await client.shutdown(flushTimeout: .zero)
        }
        // Control: the right password connects and reads.
        let alice = try await broker.connectedClient("phone-alice")
        let own = try await MessageCollector(alice, "guardian/notifications/phone-alice")
        try await admin.publish("guardian/notifications/phone-alice", payload: Data(#"{"for": "alice"}"#.utf8))
        #expect(await own.wait(for: 1).count == 1)
        await alice.shutdown()
        await admin.shutdown()
        broker.stop()
    }

    // MARK: Services

    /// Each service's own output, and a topic only it may publish.
    static let serviceOutputs: [(service: String, topic: String)] = [
        ("ingest", "guardian/events/phone-alice/location"),
        ("geofence", "guardian/geofence/phone-alice"),
        ("geofence", "owntracks/alice/phone/cmd"),
        ("predictor", "guardian/predictions/phone-alice"),
        ("predictor", "guardian/nudges/phone-alice"),
        ("timeline", "guardian/timeline/phone-alice/days/2026-11-20"),
        ("command-router", "guardian/children/phone-alice/policy"),
        ("command-router", "guardian/children/phone-alice/command"),
        ("command-router", "guardian/parents/parent-alex/replies"),
        ("notifier", "guardian/notifications/phone-alice"),
        ("guardian-mcp", "guardian/parents/parent-alex/commands"),
    ]

    @Test("each service connects only with its own password and cannot publish another service's output, errors or presence")
    func servicesDoNotShareCredentials() async throws {
        let broker = try TestBroker(access: .secured)
        let services = ["ingest", "geofence", "predictor", "timeline", "command-router", "notifier", "guardian-mcp"]
        for (index, service) in services.enumerated() {
            // Another service's password does not open this account.
            let other = services[(index + 1) % services.count]
            var borrowed = broker.configuration("\(service)-borrowed", user: service)
            borrowed.password = broker.password(for: other)
            let impostor = try MQTTClient(configuration: borrowed, logger: Self.silent)
            await #expect(throws: MQTTError.connectionRefused(reasonCode: Self.notAuthorized), "\(service) with \(other)'s password") {
                try await impostor.connect(timeout: .seconds(60))
            }
            await impostor.shutdown(flushTimeout: .zero)

            let client = try await broker.connectedClient("\(service)-acl", user: service)
            for (owner, topic) in Self.serviceOutputs {
                let error = await Self.publishError(client, topic)
                if owner == service {
                    #expect(error == nil, "\(service) publishing its own \(topic): \(String(describing: error))")
                } else {
                    #expect(error == .publishRefused(topic: topic, reasonCode: Self.notAuthorized), "\(service) publishing \(owner)'s \(topic)")
                }
            }
            try await client.publish("guardian/errors/\(service)", payload: Data("{}".utf8))
            await Self.expectRefused(client, ["guardian/errors/\(other)", "guardian/services/\(other)/x"])
            await client.shutdown()
        }
        broker.stop()
    }
}
