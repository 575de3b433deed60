import Foundation
import Synchronization
import GuardianTestSupport
import MQTT
import Testing

@Suite("MQTT client over a real mosquitto")
struct MQTTClientTests {
    @Test("QoS 1 publish resolves on acknowledgement and the subscriber receives it")
    func publishSubscribe() async throws {
        let broker = try TestBroker()
        let subscriber = try await broker.connectedClient("sub")
        let publisher = try await broker.connectedClient("pub")
        let collector = try await MessageCollector(subscriber, "t/+/x")
        try await publisher.publish("t/a/x", payload: Data("hello".utf8))
        try await publisher.publish("t/b/y", payload: Data("other".utf8))
        let messages = await collector.wait(for: 1)
        #expect(messages.map(\.topic) == ["t/a/x"])
        #expect(messages.first?.payload == Data("hello".utf8))
        #expect(publisher.statistics.acknowledged == 2)
        #expect(await collector.settle().count == 1)
        await subscriber.shutdown()
        await publisher.shutdown()
    }

    @Test("retained messages reach new subscribers; an empty retained payload deletes")
    func retained() async throws {
        let broker = try TestBroker()
        let admin = try await broker.connectedClient("admin")
        try await admin.publish("zones/z1", payload: Data("{\"name\":\"a\"}".utf8), retain: true)
        try await admin.publish("zones/z2", payload: Data("{\"name\":\"b\"}".utf8), retain: true)
        try await admin.publish("zones/z2", payload: Data(), retain: true)
        let reader = try await broker.connectedClient("reader")
        let collector = try await MessageCollector(reader, "zones/#")
        let messages = await collector.wait(for: 1)
        #expect(messages.map(\.topic) == ["zones/z1"])
        #expect(messages.first?.retain == true)
        #expect(await collector.settle().count == 1)
        await admin.shutdown()
        await reader.shutdown()
    }

    @Test("MQTT 5 properties: response topic, correlation data and user properties arrive intact")
    func properties() async throws {
        let broker = try TestBroker()
        let server = try await broker.connectedClient("server")
        let client = try await broker.connectedClient("client")
        let requests = try await MessageCollector(server, "req")
        let correlation = Data([0, 1, 2, 255])
        let properties = MQTTProperties(
            responseTopic: "replies/client", correlationData: correlation, contentType: "application/json",
            userProperties: [("trace", "abc"), ("trace", "def")])
        try await client.publish("req", payload: Data("{}".utf8), properties: properties)
        let message = try #require(await requests.wait(for: 1).first)
        #expect(message.properties.responseTopic == "replies/client")
        #expect(message.properties.correlationData == correlation)
        #expect(message.properties.contentType == "application/json")
        #expect(message.properties.userProperties.map { "\($0.0)=\($0.1)" } == ["trace=abc", "trace=def"])
        await server.shutdown()
        await client.shutdown()
    }

    @Test("a shared subscription splits messages between members, each exactly once")
    func sharedSubscription() async throws {
        let broker = try TestBroker()
        let a = try await broker.connectedClient("member-a")
        let b = try await broker.connectedClient("member-b")
        let ca = try await MessageCollector(a, "$share/workers/jobs/#")
        let cb = try await MessageCollector(b, "$share/workers/jobs/#")
        let publisher = try await broker.connectedClient("producer")
        for i in 0..<100 { try await publisher.publish("jobs/\(i)", payload: Data("\(i)".utf8)) }
        _ = await eventually(.seconds(120)) { ca.count + cb.count >= 100 }
        _ = await ca.settle()
        let received = (ca.all + cb.all).map { String(decoding: $0.payload, as: UTF8.self) }
        #expect(received.count == 100)
        #expect(Set(received) == Set((0..<100).map(String.init)))
        #expect(ca.count > 10 && cb.count > 10)
        for client in [a, b, publisher] { await client.shutdown() }
    }

    @Test("overlapping subscriptions each receive a matching message once (subscription identifiers)")
    func overlappingSubscriptions() async throws {
        let broker = try TestBroker()
        let client = try await broker.connectedClient("overlap")
        let wide = try await MessageCollector(client, "a/#")
        let narrow = try await MessageCollector(client, "a/b")
        let publisher = try await broker.connectedClient("overlap-pub")
        try await publisher.publish("a/b", payload: Data("1".utf8))
        try await publisher.publish("a/c", payload: Data("2".utf8))
        _ = await wide.wait(for: 2)
        _ = await narrow.settle()
        #expect(wide.all.map(\.topic).sorted() == ["a/b", "a/c"])
        #expect(narrow.all.map(\.topic) == ["a/b"])
        await client.shutdown()
        await publisher.shutdown()
    }

    @Test("two subscriptions to the same filter both receive each message, and one left alone keeps receiving after the other ends")
    func sameFilterTwice() async throws {
        let broker = try TestBroker()
        let client = try await broker.connectedClient("twice")
        let first = Mutex<[String]>([])
        let second = Mutex<[String]>([])
        try await client.subscribe("f/+") { message in first.withLock { $0.append(message.topic) } }
        let secondId = try await client.subscribe("f/+") { message in second.withLock { $0.append(message.topic) } }
        let publisher = try await broker.connectedClient("twice-pub")
        try await publisher.publish("f/1", payload: Data("1".utf8))
        let both = await eventually { first.withLock { $0 } == ["f/1"] && second.withLock { $0 } == ["f/1"] }
        #expect(both, "first \(first.withLock { $0 }), second \(second.withLock { $0 })")
        // The broker's one subscription carries the second identifier: ending the second must not end the first.
        client.unsubscribe(id: secondId)
        try await publisher.publish("f/2", payload: Data("2".utf8))
        let firstAlone = await eventually { first.withLock { $0 } == ["f/1", "f/2"] }
        #expect(firstAlone, "first \(first.withLock { $0 })")
        #expect(second.withLock { $0 } == ["f/1"])
        await client.shutdown()
        await publisher.shutdown()
    }

    @Test("the will is published when the connection drops, not on a clean disconnect")
    func will() async throws {
        let broker = try TestBroker()
        let watcher = try await broker.connectedClient("watcher")
        let wills = try await MessageCollector(watcher, "presence/#")
        let will = MQTTOutgoing(topic: "presence/dying", payload: Data("offline".utf8), retain: true)
        let clean = try await broker.connectedClient("clean", will: MQTTOutgoing(topic: "presence/clean", payload: Data("offline".utf8)))
        await clean.shutdown()
        let dying = try await broker.connectedClient("dying", will: will)
        await dying.shutdown(sendWill: true)
        let messages = await wills.wait(for: 1)
        #expect(messages.map(\.topic) == ["presence/dying"])
        #expect(await wills.settle().count == 1)
        await watcher.shutdown()
    }

    @Test("a persistent session receives what was published while the client was away")
    func persistentSession() async throws {
        let broker = try TestBroker()
        var first: MQTTClient? = try await broker.connectedClient("durable", cleanStart: false)
        let firstSubscription = try await first!.subscribe("work/#", qos: .atLeastOnce)
        await first!.shutdown()
        _ = firstSubscription
        first = nil
        let publisher = try await broker.connectedClient("durable-pub")
        for i in 0..<200 { try await publisher.publish("work/\(i)", payload: Data("\(i)".utf8)) }
        // A new process: same client id, subscription registered before connecting.
        let second = try MQTTClient(configuration: broker.configuration("durable", cleanStart: false), logger: .quiet)
        let subscription = try await second.subscribe("work/#")
        let box = ReceivedPayloads()
        let reader = Task { for await message in subscription { box.add(String(decoding: message.payload, as: UTF8.self)) } }
        try await second.connect(timeout: .seconds(60))
        _ = await eventually(.seconds(120)) { box.count >= 200 }
        #expect(box.values == (0..<200).map(String.init))
        reader.cancel()
        await second.shutdown()
        await publisher.shutdown()
    }

    @Test("after a broker restart the client reconnects by itself; QoS 1 sent meanwhile is delivered")
    func reconnect() async throws {
        let broker = try TestBroker()
        let subscriber = try MQTTClient(configuration: broker.configuration("re-sub", cleanStart: false), logger: .quiet)
        let collector = try await MessageCollector(subscriber, "r/#")
        try await subscriber.connect(timeout: .seconds(60))
        let publisher = try await broker.connectedClient("re-pub", cleanStart: false)
        try await publisher.publish("r/1", payload: Data("1".utf8))
        _ = await collector.wait(for: 1)
        // The broker answers this after reading the subscriber's acknowledgement of r/1 (else r/1 comes again).
        try await subscriber.publish("barrier", payload: Data())
        broker.stop()
        let pending = Task { try await publisher.publish("r/2", payload: Data("2".utf8)) }
        #expect(await eventually { !subscriber.isConnected })
        try broker.start()
        try await pending.value
        let messages = await collector.wait(for: 2)
        #expect(messages.map(\.topic) == ["r/1", "r/2"])
        #expect(subscriber.statistics.connects >= 2)
        await subscriber.shutdown()
        await publisher.shutdown()
    }

    @Test("a QoS 1 publish made before connecting is sent once connected")
    func publishBeforeConnect() async throws {
        let broker = try TestBroker()
        let reader = try await broker.connectedClient("early-reader")
        let collector = try await MessageCollector(reader, "early/#")
        let early = try MQTTClient(configuration: broker.configuration("early"), logger: .quiet)
        let acknowledged = Task { try await early.publish("early/1", payload: Data("x".utf8)) }
        try await Task.sleep(for: .milliseconds(100))
        try await early.connect(timeout: .seconds(60))
        try await acknowledged.value
        #expect(await collector.wait(for: 1).map(\.topic) == ["early/1"])
        await early.shutdown()
        await reader.shutdown()
    }

    @Test("bad credentials are refused with the broker's reason")
    func badCredentials() async throws {
        let broker = try TestBroker(access: .secured)
        var configuration = broker.configuration("ingest")
        configuration.password = "wrong"
        let client = try MQTTClient(configuration: configuration, logger: .quiet)
        // mosquitto 2.0 answers "not authorized" (135) where MQTT 5 also allows "bad user name or password" (134).
        let error = await #expect(throws: MQTTError.self) { try await client.connect(timeout: .seconds(60)) }
        #expect(error == .connectionRefused(reasonCode: 135) || error == .connectionRefused(reasonCode: 134))
        await client.shutdown()
    }

    @Test("a connect that times out says why the broker could not be reached")
    func unreachableBrokerSaysWhy() async throws {
        let broker = try TestBroker()
        let closed = try ReservedPort()
        var configuration = broker.configuration("ingest")
        configuration.port = closed.port
        let client = try MQTTClient(configuration: configuration, logger: .quiet)
        // Refused at once; the ceiling only bounds the wait for the error.
        let error = await #expect(throws: MQTTError.self) { try await client.connect(timeout: .seconds(10)) }
        #expect(error.map { "\($0)" }?.contains("Connection refused") == true, "\(String(describing: error))")
        await client.shutdown()
        broker.stop()
    }

    @Test("a publish the ACL refuses fails with the broker's reason code")
    func aclRefusal() async throws {
        let broker = try TestBroker(access: .secured)
        let phone = try await broker.connectedClient("phone-alice")
        try await phone.publish("guardian/devices/phone-alice/location", payload: Data("{}".utf8))
        await #expect(throws: MQTTError.publishRefused(topic: "guardian/devices/tablet-sam/location", reasonCode: 135)) {
            try await phone.publish("guardian/devices/tablet-sam/location", payload: Data("{}".utf8))
        }
        await phone.shutdown()
    }

    @Test("invalid topics and filters are refused locally")
    func invalidTopics() async throws {
        let broker = try TestBroker()
        let client = try await broker.connectedClient("invalid")
        await #expect(throws: MQTTError.invalidTopic("a/+/b")) { try await client.publish("a/+/b", payload: Data()) }
        await #expect(throws: MQTTError.invalidTopic("a/#/b")) { _ = try await client.subscribe("a/#/b") }
        await client.shutdown()
    }
}

final class ReceivedPayloads: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func add(_ value: String) { lock.withLock { items.append(value) } }
    var values: [String] { lock.withLock { items } }
    var count: Int { lock.withLock { items.count } }
}
