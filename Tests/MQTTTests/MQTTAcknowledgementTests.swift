import CMosquitto
import Foundation
import Glibc
import GuardianTestSupport
@testable import MQTT
import Synchronization
import Testing

@Suite("MQTT client: a message is acknowledged only after what its handler published")
struct MQTTAcknowledgementTests {
    @Test("a connection lost while the handler's publish awaits the broker leaves the message unacknowledged: the broker delivers it again, and what the handler published arrives")
    func acknowledgedAfterPublishing() async throws {
        let broker = try TestBroker()
        var configuration = broker.configuration("fenced", cleanStart: false)
        configuration.acknowledgesAfterPublishing = true
        let client = try MQTTClient(configuration: configuration, logger: .quiet)
        let handled = Mutex<[String]>([])
        // The first message's handler waits until the test has frozen the broker.
        let frozen = DispatchSemaphore(value: 0)
        try await client.subscribeInBursts("fence/in/#") { messages in
            for message in messages {
                let name = String(decoding: message.payload, as: UTF8.self)
                let first = handled.withLock { $0.append(name); return $0.count == 1 }
                if first { frozen.wait() }
                client.publish(MQTTOutgoing(topic: "fence/out/\(name)", payload: message.payload)) { _ in }
            }
        }
        let caused = Mutex<[String]>([])
        let observer = try await broker.connectedClient("fence-observer")
        try await observer.subscribe("fence/out/#") { message in
            caused.withLock { $0.append(String(decoding: message.payload, as: UTF8.self)) }
        }
        try await client.connect(timeout: .seconds(60))
        let sender = try await broker.connectedClient("fence-sender")
        try await sender.publish("fence/in/a", payload: Data("a".utf8))
        #expect(await eventually { handled.withLock { $0 } == ["a"] })

        // Frozen, the broker acknowledges nothing: the handler's publish stays outstanding, and the
        // turn holds its acknowledgement of "a" back. The session's connection then breaks under it.
        broker.pause()
        frozen.signal()
        #expect(await eventually { client.connection.fence.outstanding == 1 })
        let socket = mosquitto_socket(client.connection.handle)
        #expect(socket >= 0)
        _ = Glibc.shutdown(socket, Int32(SHUT_RDWR))
        broker.resume()

        // The session comes back (a persistent one) and the broker, never acknowledged, delivers "a" again.
        #expect(await eventually { handled.withLock { $0 } == ["a", "a"] }, "handled: \(handled.withLock { $0 })")
        #expect(await eventually { caused.withLock { $0 }.contains("a") })
        #expect(await eventually { client.isConnected && client.statistics.pendingPublishes == 0 })

        // Once acknowledged, a message is not delivered again.
        try await sender.publish("fence/in/b", payload: Data("b".utf8))
        #expect(await eventually { handled.withLock { $0 }.last == "b" && caused.withLock { $0 }.contains("b") })
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
}
