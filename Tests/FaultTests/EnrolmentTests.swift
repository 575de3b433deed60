import BrokerAccess
import Foundation
import GuardianIngest
import GuardianTestSupport
import Logging
import MQTT
import Testing

/// Accounts made and revoked at run time (dynamic-security plugin), over the real mosquitto, through
/// the library and through `guardian devices`.
@Suite("enrolment and revocation over the real broker")
struct EnrolmentTests {
    static let notAuthorized = AccessControlTests.notAuthorized
    static var silent: Logger { AccessControlTests.silent }

    static func client(_ broker: TestBroker, _ id: String, password: String?, port: Int? = nil) throws -> MQTTClient {
        var configuration = MQTTConfiguration(
            host: "127.0.0.1", port: port ?? broker.port, username: id, password: password, clientId: "\(id)-\(UUID().uuidString.prefix(6))",
            cleanStart: true)
        configuration.sessionExpirySeconds = 0
        configuration.reconnectDelayMin = .milliseconds(50)
        configuration.reconnectDelayMax = .milliseconds(200)
        return try MQTTClient(configuration: configuration, logger: silent)
    }

    static func publishError(_ client: MQTTClient, _ topic: String) async -> MQTTError? {
        await AccessControlTests.publishError(client, topic, AccessControlTests.location)
    }

    @Test("an enrolled device publishes its own data at once and nothing else; removed, it is disconnected and refused")
    func enrolThenRevoke() async throws {
        let broker = try TestBroker(access: .secured)
        let admin = try await broker.connectedClient("admin")
        let enrolment = try await Enrolment(client: admin)
        let uploads = try await MessageCollector(admin, "guardian/devices/+/location")

        let added = ContinuousClock.now
        let zoe = try await enrolment.add("phone-zoe", role: .device)
        let device = try Self.client(broker, "phone-zoe", password: zoe.password)
        try await device.connect(timeout: .seconds(60))
        #expect(await Self.publishError(device, "guardian/devices/phone-zoe/location") == nil)
        print("enrolment: phone-zoe published \(ContinuousClock.now - added) after it was added")
        for other in ["guardian/devices/phone-alice/location", "guardian/children/phone-zoe/policy", "guardian/events/phone-zoe/location"] {
            #expect(await Self.publishError(device, other) == .publishRefused(topic: other, reasonCode: Self.notAuthorized), "\(other)")
        }
        await uploads.wait(for: 1)
        #expect(uploads.all.map(\.topic) == ["guardian/devices/phone-zoe/location"])
        #expect(try await enrolment.list().contains(.init(id: "phone-zoe", role: .device)))
        // Enrolled twice: a clear refusal, the account untouched.
        await #expect(throws: BrokerAccessError.alreadyEnrolled("phone-zoe")) { try await enrolment.add("phone-zoe", role: .child) }

        let removed = ContinuousClock.now
        #expect(try await enrolment.remove("phone-zoe"))
        #expect(await eventually(.seconds(120)) { !device.isConnected }, "the removed device is still connected")
        print("enrolment: phone-zoe cut off \(ContinuousClock.now - removed) after it was removed")
        let again = try Self.client(broker, "phone-zoe", password: zoe.password)
        await #expect(throws: MQTTError.connectionRefused(reasonCode: Self.notAuthorized)) { try await again.connect(timeout: .seconds(60)) }
        #expect(try await !enrolment.list().contains { $0.id == "phone-zoe" })
        #expect(try await !enrolment.remove("phone-zoe"))

        // Control: the accounts that were not removed still connect and publish.
        let alice = try await broker.connectedClient("phone-alice")
        #expect(await Self.publishError(alice, "guardian/devices/phone-alice/location") == nil)
        for client in [device, again, alice, admin] { await client.shutdown(flushTimeout: .zero) }
        broker.stop()
    }

    @Test("an account enrolled at run time survives a broker restart; a removed one stays removed")
    func enrolmentSurvivesRestart() async throws {
        let broker = try TestBroker(access: .secured)
        let admin = try await broker.connectedClient("admin")
        let enrolment = try await Enrolment(client: admin)
        let kept = try await enrolment.add("phone-kept", role: .device)
        let dropped = try await enrolment.add("phone-dropped", role: .device)
        try await enrolment.remove(dropped.id)
        await admin.shutdown()
        broker.stop()
        try broker.start()

        let device = try Self.client(broker, kept.id, password: kept.password)
        try await device.connect(timeout: .seconds(60))
        #expect(await Self.publishError(device, "guardian/devices/phone-kept/location") == nil)
        #expect(await Self.publishError(device, "guardian/devices/phone-alice/location") == .publishRefused(topic: "guardian/devices/phone-alice/location", reasonCode: 135))
        let gone = try Self.client(broker, dropped.id, password: dropped.password)
        await #expect(throws: MQTTError.connectionRefused(reasonCode: Self.notAuthorized)) { try await gone.connect(timeout: .seconds(60)) }
        for client in [device, gone] { await client.shutdown(flushTimeout: .zero) }
        broker.stop()
    }

    @Test("each enrolled role carries its own grants: a parent commands, an OwnTracks phone publishes only under owntracks/")
    func rolesCarryTheirGrants() async throws {
        let broker = try TestBroker(access: .secured)
        let admin = try await broker.connectedClient("admin")
        let enrolment = try await Enrolment(client: admin)
        let parent = try await enrolment.add("parent-cy", role: .parent)
        let phone = try await enrolment.add("cy", role: .owntracks)
        let child = try await enrolment.add("tablet-cy", role: .child)

        let p = try Self.client(broker, parent.id, password: parent.password)
        let o = try Self.client(broker, phone.id, password: phone.password)
        let c = try Self.client(broker, child.id, password: child.password)
        for client in [p, o, c] { try await client.connect(timeout: .seconds(60)) }
        #expect(await Self.publishError(p, "guardian/parents/parent-cy/commands") == nil)
        #expect(await Self.publishError(p, "guardian/parents/parent-alex/commands") == .publishRefused(topic: "guardian/parents/parent-alex/commands", reasonCode: 135))
        #expect(await Self.publishError(p, "guardian/devices/parent-cy/location") == .publishRefused(topic: "guardian/devices/parent-cy/location", reasonCode: 135))
        #expect(await Self.publishError(o, "owntracks/cy/phone") == nil)
        #expect(await Self.publishError(o, "guardian/devices/cy/location") == .publishRefused(topic: "guardian/devices/cy/location", reasonCode: 135))
        #expect(await Self.publishError(c, "guardian/children/tablet-cy/status") == nil)
        #expect(await Self.publishError(c, "guardian/children/tablet-cy/policy") == .publishRefused(topic: "guardian/children/tablet-cy/policy", reasonCode: 135))

        // What a child may read arrives; another child's does not.
        let policies = try await MessageCollector(c, "guardian/children/+/policy")
        try await admin.publish("guardian/children/tablet-sam/policy", payload: Data("{}".utf8))
        try await admin.publish("guardian/children/tablet-cy/policy", payload: Data("{}".utf8))
        await policies.wait(for: 1)
        _ = await policies.settle(.milliseconds(300))
        #expect(policies.all.map(\.topic) == ["guardian/children/tablet-cy/policy"])

        let listed = try await enrolment.list()
        #expect(listed.contains(.init(id: "parent-cy", role: .parent)) && listed.contains(.init(id: "cy", role: .owntracks)))
        #expect(listed.contains(.init(id: "ingest", role: .service("ingest"))) && listed.contains(.init(id: "admin", role: .admin)))
        for client in [p, o, c, admin] { await client.shutdown(flushTimeout: .zero) }
        broker.stop()
    }

    @Test("a family's parents read their children's data through the family's role, and lose it when the family changes or goes")
    func familyRole() async throws {
        let broker = try TestBroker(access: .secured)
        let admin = try await broker.connectedClient("admin")
        let enrolment = try await Enrolment(client: admin)
        let alex = try await broker.connectedClient("parent-alex")
        let seen = try await MessageCollector(alex, "guardian/#")
        let topics = [
            "guardian/children/tablet-sam/policy", "guardian/events/tablet-sam/location", "guardian/timeline/tablet-sam/days/2026-11-20",
            "guardian/families/alex", "guardian/children/phone-alice/policy", "guardian/events/phone-alice/location",
        ]
        // Changing a client's roles makes the broker disconnect it (the plugin's "kick"), and the
        // client reconnects and subscribes again: probe until its own notifications flow.
        func publishAll(_ marker: String) async throws {
            var probe = 0
            while true {
                probe += 1
                let tag = "\(marker)-probe-\(probe)"
                try await admin.publish("guardian/notifications/parent-alex", payload: Data(#"{"m":"\#(tag)"}"#.utf8))
                let arrived = await eventually(.seconds(2)) { seen.all.contains { String(decoding: $0.payload, as: UTF8.self).contains(tag) } }
                if arrived { break }
                try #require(probe < 30, "parent-alex never received its notifications again")
            }
            for topic in topics { try await admin.publish(topic, payload: Data(#"{"m":"\#(marker)"}"#.utf8)) }
            // Readable in every phase: once it arrives, everything published before it was delivered or refused.
            try await admin.publish("guardian/notifications/parent-alex", payload: Data(#"{"m":"\#(marker)-end"}"#.utf8))
            #expect(await eventually(.seconds(60)) { seen.all.contains { String(decoding: $0.payload, as: UTF8.self).contains("\(marker)-end") } })
        }
        func received(_ marker: String) -> Set<String> {
            Set(seen.all.filter { String(decoding: $0.payload, as: UTF8.self).contains("\"\(marker)\"") }.map(\.topic))
                .subtracting(["guardian/notifications/parent-alex"])
        }

        try await publishAll("before")
        #expect(received("before").isEmpty, "a parent read a child's data before any family: \(received("before"))")

        let missing = try await enrolment.setFamily("alex", parents: ["parent-alex", "parent-gone"], children: ["tablet-sam"])
        #expect(missing == ["parent-gone"])
        try await publishAll("family")
        #expect(received("family") == Set(topics.prefix(4)), "\(received("family"))")
        #expect(await Self.publishError(alex, "guardian/timeline/tablet-sam/feedback") == nil)
        #expect(await Self.publishError(alex, "guardian/children/tablet-sam/policy") == .publishRefused(topic: "guardian/children/tablet-sam/policy", reasonCode: 135))

        // Sam leaves the family: the role is made anew without him.
        try await enrolment.setFamily("alex", parents: ["parent-alex"], children: ["phone-alice"])
        try await publishAll("moved")
        #expect(received("moved") == ["guardian/families/alex", "guardian/children/phone-alice/policy", "guardian/events/phone-alice/location"])

        try await enrolment.removeFamily("alex")
        try await publishAll("gone")
        #expect(received("gone").isEmpty, "\(received("gone"))")
        await alex.shutdown()
        await admin.shutdown()
        broker.stop()
    }

    @Test("the CLI's guardian-cli account cannot ask, or read answers, as another requester")
    func cliAccountKeepsToItsOwnPrivacyTopics() async throws {
        let broker = try TestBroker(access: .secured)
        let cli = try await broker.connectedClient("guardian-cli")
        let admin = try await broker.connectedClient("admin")
        #expect(await Self.publishError(cli, "guardian/privacy/requests/guardian-cli") == nil)
        #expect(await Self.publishError(cli, "guardian/privacy/requests/admin") == .publishRefused(topic: "guardian/privacy/requests/admin", reasonCode: 135))
        let receipts = try await MessageCollector(cli, "guardian/privacy/receipts/#")
        try await admin.publish("guardian/privacy/receipts/admin/r1/ingest/x", payload: Data("{}".utf8))
        try await admin.publish("guardian/privacy/receipts/guardian-cli/r2/ingest/x", payload: Data("{}".utf8))
        await receipts.wait(for: 1)
        _ = await receipts.settle(.milliseconds(300))
        #expect(receipts.all.map(\.topic) == ["guardian/privacy/receipts/guardian-cli/r2/ingest/x"])
        // Everything else stays open to it.
        #expect(await Self.publishError(cli, "guardian/zones/z1") == nil)
        await cli.shutdown()
        await admin.shutdown()
        broker.stop()
    }

    @Test("guardian devices add prints a password that connects at once; list shows it; remove cuts it off")
    func devicesCommand() async throws {
        let guardian = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("guardian")
        try #require(FileManager.default.isExecutableFile(atPath: guardian.path), "build the CLI first (swift build --build-tests)")
        let broker = try TestBroker(access: .secured)
        let environment = [
            "GUARDIAN_MQTT_URL": broker.url, "GUARDIAN_MQTT_USERNAME": "admin", "GUARDIAN_MQTT_PASSWORD": broker.password(for: "admin") ?? "",
            "GUARDIAN_PUBLIC_HOST": "guardian.example",
        ]
        let added = try await CommandOutput.run(guardian, ["devices", "add", "ot-dana", "--role", "owntracks"], environment: environment)
        #expect(added.status == 0, "\(added.text)")
        let password = try #require(added.text.split(separator: "\n").first { $0.hasPrefix("password: ") }?.dropFirst("password: ".count))
        #expect(added.text.contains("\"host\" : \"guardian.example\"") && added.text.contains("\"tls\" : true") && added.text.contains("8883"))

        let phone = try Self.client(broker, "ot-dana", password: String(password))
        try await phone.connect(timeout: .seconds(60))
        #expect(await Self.publishError(phone, "owntracks/ot-dana/phone") == nil)

        let listed = try await CommandOutput.run(guardian, ["devices", "list"], environment: environment)
        #expect(listed.status == 0)
        #expect(listed.text.split(separator: "\n").contains { $0.hasPrefix("ot-dana ") && $0.hasSuffix("owntracks") }, "\(listed.text)")

        let removed = try await CommandOutput.run(guardian, ["devices", "remove", "ot-dana"], environment: environment)
        #expect(removed.status == 0, "\(removed.text)")
        #expect(await eventually(.seconds(120)) { !phone.isConnected })
        let unknown = try await CommandOutput.run(guardian, ["devices", "remove", "ot-dana"], environment: environment)
        #expect(unknown.status != 0 && unknown.text.contains("no account ot-dana"))

        // Not as admin: the plugin does not answer, and the CLI says why.
        var asDevice = environment
        asDevice["GUARDIAN_MQTT_USERNAME"] = "phone-alice"
        asDevice["GUARDIAN_MQTT_PASSWORD"] = broker.password(for: "phone-alice")
        let refused = try await CommandOutput.run(guardian, ["devices", "list"], environment: asDevice)
        #expect(refused.status != 0 && refused.text.contains("admin"), "\(refused.text)")
        await phone.shutdown(flushTimeout: .zero)
        broker.stop()
    }

    @Test("TLS: a client that trusts the broker's CA connects; another CA, or no account, is refused")
    func tlsListener() async throws {
        let broker = try TestBroker(access: .secured, tls: true)
        let tlsPort = try #require(broker.tlsPort)
        let ca = broker.certificates.appendingPathComponent("ca.crt").path

        var trusted = broker.configuration("phone-alice")
        trusted.port = tlsPort
        trusted.tlsCAFile = ca
        trusted.useTLS = true
        let alice = try MQTTClient(configuration: trusted, logger: Self.silent)
        try await alice.connect(timeout: .seconds(60))

        // A service speaks mqtts:// too, trusting the CA named by GUARDIAN_MQTT_CA_FILE.
        let admin = try await broker.connectedClient("admin")
        let events = try await MessageCollector(admin, "guardian/events/phone-alice/location")
        let data = try TemporaryDirectory()
        let config = try broker.serviceConfig(
            service: "ingest", dataDirectory: data.url,
            extra: ["GUARDIAN_MQTT_URL": "mqtts://127.0.0.1:\(tlsPort)", "GUARDIAN_MQTT_CA_FILE": ca])
        let ingest = try await startInProcess(try IngestService(config: config, logger: .quiet), name: "ingest", observer: admin, timeout: .seconds(60))
        #expect(await Self.publishError(alice, "guardian/devices/phone-alice/location") == nil)
        #expect(await events.wait(for: 1, timeout: .seconds(60)).count == 1, "the upload over TLS reached ingest over TLS")
        await stopInProcess(ingest)
        await admin.shutdown()

        let other = try TemporaryDirectory()
        try TestBroker.makeCertificates(in: other.url.appendingPathComponent("tls"))
        var wrongCA = trusted
        wrongCA.clientId = "phone-alice-wrong-ca"
        wrongCA.tlsCAFile = other.url.appendingPathComponent("tls/ca.crt").path
        let impostor = try MQTTClient(configuration: wrongCA, logger: Self.silent)
        await #expect(throws: MQTTError.self) { try await impostor.connect(timeout: .seconds(5)) }
        #expect(!impostor.isConnected)

        var anonymous = trusted
        anonymous.clientId = "anonymous-tls"
        anonymous.username = nil
        anonymous.password = nil
        let nobody = try MQTTClient(configuration: anonymous, logger: Self.silent)
        await #expect(throws: MQTTError.connectionRefused(reasonCode: Self.notAuthorized)) { try await nobody.connect(timeout: .seconds(60)) }

        // Plain MQTT on the TLS port is not spoken.
        let plain = try Self.client(broker, "phone-alice", password: broker.password(for: "phone-alice"), port: tlsPort)
        await #expect(throws: MQTTError.self) { try await plain.connect(timeout: .seconds(5)) }
        for client in [alice, impostor, nobody, plain] { await client.shutdown(flushTimeout: .zero) }
        broker.stop()
    }
}

/// What a command printed (stdout and stderr together) and its exit status.
struct CommandOutput {
    var status: Int32
    var text: String

    static func run(_ executable: URL, _ arguments: [String], environment: [String: String]) async throws -> CommandOutput {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = try await blockingWork {
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return data
        }
        return CommandOutput(status: process.terminationStatus, text: String(decoding: data, as: UTF8.self))
    }
}
