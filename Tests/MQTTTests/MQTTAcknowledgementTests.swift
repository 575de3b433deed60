import CMosquitto
import Foundation
import Glibc
import GuardianTestSupport
@testable import MQTT
import Synchronization
import Testing

/// A client on a persistent session, with `acknowledgesAfterPublishing`, whose handler republishes
/// each `{prefix}/in/{name}` as `{prefix}/out/{name}`; the first message's handler waits until
/// `freezeBrokerAndReleaseFirst`.
final class Republisher: Sendable {
    let client: MQTTClient
    let configuration: MQTTConfiguration
    private let names = Mutex<[String]>([])
    private let first = DispatchSemaphore(value: 0)

    /// With `plainHandler`, a handler run as each message is read (the session reads nothing more
    /// while it waits); otherwise a burst handler.
    init(_ broker: TestBroker, _ clientId: String, prefix: String, plainHandler: Bool = false) async throws {
        var configuration = broker.configuration(clientId, cleanStart: false)
        configuration.acknowledgesAfterPublishing = true
        self.configuration = configuration
        let client = try MQTTClient(configuration: configuration, logger: .quiet)
        self.client = client
        let handle: @Sendable (MQTTMessage) -> Void = { [unowned self] message in
            let name = String(decoding: message.payload, as: UTF8.self)
            if names.withLock({ $0.append(name); return $0.count == 1 }) { first.wait() }
            client.publish(MQTTOutgoing(topic: "\(prefix)/out/\(name)", payload: message.payload)) { _ in }
        }
        if plainHandler {
            try await client.subscribe("\(prefix)/in/#", handler: handle)
        } else {
            try await client.subscribeInBursts("\(prefix)/in/#") { $0.forEach(handle) }
        }
    }

    /// The names of the messages handled so far, in order (again when delivered again).
    var handled: [String] { names.withLock { $0 } }

    /// Freezes `broker`, then lets the first message's handler finish: the broker acknowledges
    /// nothing, so its publish stays outstanding. Whether the fence counted it.
    func freezeBrokerAndReleaseFirst(_ broker: TestBroker) async -> Bool {
        broker.pause()
        first.signal()
        return await eventually { self.client.connection.fence.outstanding == 1 }
    }
}

@Suite("MQTT client: a message is acknowledged only after what its handler published")
struct MQTTAcknowledgementTests {
    @Test("a connection lost while the handler's publish awaits the broker leaves the message unacknowledged: the broker delivers it again, and what the handler published arrives")
    func acknowledgedAfterPublishing() async throws {
        let broker = try TestBroker()
        let republisher = try await Republisher(broker, "fenced", prefix: "fence")
        let (client, configuration) = (republisher.client, republisher.configuration)
        let caused = Mutex<[String]>([])
        let observer = try await broker.connectedClient("fence-observer")
        try await observer.subscribe("fence/out/#") { message in
            caused.withLock { $0.append(String(decoding: message.payload, as: UTF8.self)) }
        }
        try await client.connect(timeout: .seconds(60))
        let sender = try await broker.connectedClient("fence-sender")
        try await sender.publish("fence/in/a", payload: Data("a".utf8))
        #expect(await eventually { republisher.handled == ["a"] })

        // Frozen, the broker acknowledges nothing: the handler's publish stays outstanding, and the
        // turn holds its acknowledgement of "a" back. The session's connection then breaks under it.
        #expect(await republisher.freezeBrokerAndReleaseFirst(broker))
        let socket = mosquitto_socket(client.connection.handle)
        #expect(socket >= 0)
        _ = Glibc.shutdown(socket, Int32(SHUT_RDWR))
        broker.resume()

        // The session comes back (a persistent one) and the broker, never acknowledged, delivers "a" again.
        #expect(await eventually { republisher.handled == ["a", "a"] }, "handled: \(republisher.handled)")
        #expect(await eventually { caused.withLock { $0 }.contains("a") })
        #expect(await eventually { client.isConnected && client.statistics.pendingPublishes == 0 })

        // Once acknowledged, a message is not delivered again.
        try await sender.publish("fence/in/b", payload: Data("b".utf8))
        #expect(await eventually { republisher.handled.last == "b" && caused.withLock { $0 }.contains("b") })
        await client.shutdown()
        let again = try MQTTClient(configuration: configuration, logger: .quiet)
        let redelivered = Mutex<[String]>([])
        try await again.subscribeInBursts("fence/in/#") { messages in
            redelivered.withLock { $0 += messages.map { String(decoding: $0.payload, as: UTF8.self) } }
        }
        try await again.connect(timeout: .seconds(60))
        try await sender.publish("fence/in/c", payload: Data("c".utf8))
        #expect(await eventually { redelivered.withLock { $0 }.contains("c") })
        #expect(redelivered.withLock { $0 } == ["c"], "only the new message, nothing acknowledged before")
        await again.shutdown()
        await sender.shutdown()
        await observer.shutdown()
    }

    @Test("a stop while the handler's publish awaits the broker writes no acknowledgement and no DISCONNECT: the message stays with the session for the next client")
    func stopWhileOutstanding() async throws {
        let broker = try TestBroker()
        let republisher = try await Republisher(broker, "fenced-stop", prefix: "stop")
        let (client, configuration) = (republisher.client, republisher.configuration)
        try await client.connect(timeout: .seconds(60))
        let sender = try await broker.connectedClient("stop-sender")
        try await sender.publish("stop/in/a", payload: Data("a".utf8))
        #expect(await eventually { republisher.handled == ["a"] })

        // The broker frozen, the handler's publish stays outstanding through the stop: the session waits
        // for it (a ceiling), then ends without writing the acknowledgement of "a" it holds; the publish
        // fails with the publishing connection's shutdown.
        #expect(await republisher.freezeBrokerAndReleaseFirst(broker))
        await client.shutdown(flushTimeout: .zero)
        #expect(client.connection.fence.hasLost)
        broker.resume()

        // The next client on the session is delivered "a" again: it was never acknowledged.
        let again = try MQTTClient(configuration: configuration, logger: .quiet)
        let redelivered = Mutex<[String]>([])
        try await again.subscribeInBursts("stop/in/#") { messages in
            redelivered.withLock { $0 += messages.map { String(decoding: $0.payload, as: UTF8.self) } }
        }
        try await again.connect(timeout: .seconds(60))
        #expect(await eventually { redelivered.withLock { $0 }.contains("a") }, "redelivered: \(redelivered.withLock { $0 })")
        await again.shutdown()
        await sender.shutdown()
    }

    @Test("from the first message a replica reads: what its session queued while it was away is acknowledged only after what the handler published, though the publishing connection is not up yet")
    func queuedWhileAway() async throws {
        let broker = try TestBroker()
        var configuration = broker.configuration("fenced-start", cleanStart: false)
        configuration.acknowledgesAfterPublishing = true
        let earlier = try MQTTClient(configuration: configuration, logger: .quiet)
        try await earlier.subscribeInBursts("start/in/#") { _ in }
        try await earlier.connect(timeout: .seconds(60))
        await earlier.shutdown()
        let sender = try await broker.connectedClient("start-sender")
        try await sender.publish("start/in/a", payload: Data("a".utf8))  // queued for the session

        // A plain handler, run as the message is read: the session reads nothing more meanwhile.
        let republisher = try await Republisher(broker, "fenced-start", prefix: "start", plainHandler: true)
        let client = republisher.client
        let caused = Mutex<[String]>([])
        let observer = try await broker.connectedClient("start-observer")
        try await observer.subscribe("start/out/#") { message in
            caused.withLock { $0.append(String(decoding: message.payload, as: UTF8.self)) }
        }
        // The queued message arrives right after the broker accepts the session, before the answers
        // to its subscriptions that the publishing connection waits for.
        let connecting = Task { try await client.connect(timeout: .seconds(60)) }
        #expect(await eventually { republisher.handled == ["a"] })
        #expect(client.publisher?.isConnected == false)
        #expect(await republisher.freezeBrokerAndReleaseFirst(broker), "the handler's publish counts before the publishing connection is up")
        let socket = mosquitto_socket(client.connection.handle)
        #expect(socket >= 0)
        _ = Glibc.shutdown(socket, Int32(SHUT_RDWR))
        broker.resume()

        // Never acknowledged, "a" comes again; what the handler published arrives.
        try await connecting.value
        #expect(await eventually { republisher.handled == ["a", "a"] }, "handled: \(republisher.handled)")
        #expect(await eventually { caused.withLock { $0 }.contains("a") })
        await client.shutdown()
        await sender.shutdown()
        await observer.shutdown()
    }
}
