import Foundation
import GuardianTestSupport
import MQTT
import Synchronization
import Testing

/// Persistent sessions as a departed replica's are handed over: CONNACK's session-present flag, ending
/// a session on DISCONNECT, a connection that never comes back after a takeover, and a session's
/// queue handled by another client's handlers.
@Suite("MQTT sessions over a real mosquitto")
struct MQTTSessionTests {
    private func persistent(_ broker: TestBroker, _ id: String) -> MQTTConfiguration {
        var configuration = broker.configuration(id, cleanStart: false)
        configuration.sessionExpirySeconds = 3600
        return configuration
    }

    @Test("CONNACK says whether the session was kept; session expiry 0 on DISCONNECT deletes it")
    func sessionPresentAndEnded() async throws {
        let broker = try TestBroker()
        let first = try MQTTClient(configuration: persistent(broker, "keeper"), logger: .quiet)
        try await first.subscribe("t/+", qos: .atLeastOnce) { _ in }
        try await first.connect(timeout: .seconds(60))
        #expect(first.sessionPresent == false)
        await first.shutdown()

        // The will says when the broker has read DISCONNECT (a client closes its socket once DISCONNECT
        // is written, and the broker might otherwise read the next CONNECT first).
        let observer = try await broker.connectedClient("observer")
        let gone = try await MessageCollector(observer, "gone/keeper")
        var configuration = persistent(broker, "keeper")
        configuration.will = MQTTOutgoing(topic: "gone/keeper", payload: Data("gone".utf8))
        let again = try MQTTClient(configuration: configuration, logger: .quiet)
        try await again.connect(timeout: .seconds(60))
        #expect(again.sessionPresent == true)
        await again.shutdown(flushTimeout: .zero, sendWill: true, sessionExpiry: 0)
        #expect(await gone.wait(for: 1).count == 1)

        let last = try MQTTClient(configuration: persistent(broker, "keeper"), logger: .quiet)
        try await last.connect(timeout: .seconds(60))
        #expect(last.sessionPresent == false)
        await last.shutdown(sessionExpiry: 0)
        await observer.shutdown()
    }

    @Test("a client that does not reconnect ends for good when another connection takes its session over")
    func takenOverForGood() async throws {
        let broker = try TestBroker()
        var configuration = persistent(broker, "contested")
        configuration.reconnects = false
        let taker = try MQTTClient(configuration: configuration, logger: .quiet)
        try await taker.connect(timeout: .seconds(60))
        let owner = try MQTTClient(configuration: persistent(broker, "contested"), logger: .quiet)
        try await owner.connect(timeout: .seconds(60))
        #expect(await eventually { taker.hasEnded })
        // mosquitto 2.0 closes the connection without sending DISCONNECT 0x8E first: only the end counts.
        #expect(taker.disconnectReason != nil)
        #expect(!taker.isConnected)
        // The owner keeps its connection: the ended client did not come back to fight it.
        try await owner.publish("contested/check", payload: Data())
        #expect(owner.isConnected && owner.statistics.connects == 1)
        await taker.shutdown(flushTimeout: .zero)
        await owner.shutdown(sessionExpiry: 0)
    }

    @Test("a session adopted by another client: its queue reaches that client's handlers")
    func adoptedQueue() async throws {
        let broker = try TestBroker()
        let departed = try MQTTClient(configuration: persistent(broker, "replica-old"), logger: .quiet)
        try await departed.subscribe("$share/group/fixes/+", qos: .atLeastOnce) { _ in }
        try await departed.connect(timeout: .seconds(60))
        await departed.shutdown()  // keeps its session, still a member of the group
        let publisher = try await broker.connectedClient("publisher")
        for i in 0..<20 { try await publisher.publish("fixes/\(i)", payload: Data("\(i)".utf8)) }

        let received = Mutex<[String]>([])
        let live = try MQTTClient(configuration: persistent(broker, "replica-live"), logger: .quiet)
        try await live.subscribeInBursts("$share/group/fixes/+", qos: .atLeastOnce) { messages in
            received.withLock { $0 += messages.map(\.topic) }
        }
        let adopted = try live.adoptingSession(of: "replica-old", handlersFor: { $0.hasPrefix("$share/") }, logger: .quiet)
        try await adopted.connect(timeout: .seconds(60))
        #expect(adopted.sessionPresent == true)
        #expect(adopted.withdraw { $0.hasPrefix("$share/") } == ["$share/group/fixes/+"])
        #expect(await eventually { received.withLock { $0.count } >= 20 })
        #expect(Set(received.withLock { $0 }) == Set((0..<20).map { "fixes/\($0)" }))
        await adopted.shutdown(sessionExpiry: 0)
        await publisher.shutdown()
    }

    /// Ending a session while messages keep arriving: libmosquitto drops the connection without its
    /// DISCONNECT if it reads a PUBLISH first, and closing a socket with unread data resets the
    /// connection, which the broker may notice before it reads the DISCONNECT. Either way the session
    /// lived on (about half the rounds here, before the client wrote DISCONNECT at once and read until
    /// the broker closed).
    @Test("a session ended while messages pour in is gone: the DISCONNECT reaches the broker")
    func sessionEndedUnderTraffic() async throws {
        let broker = try TestBroker()
        let flooder = try await broker.connectedClient("flooder")
        let flood = Task {
            var n = 0
            while !Task.isCancelled {
                try? await flooder.publish("flood/\(n % 8)", payload: Data(count: 512))
                n += 1
            }
        }
        var left: [Int] = []
        for round in 0..<30 {
            let id = "leaver-\(round)"
            let leaver = try MQTTClient(configuration: persistent(broker, id), logger: .quiet)
            let received = Atomic<Int>(0)
            try await leaver.subscribe("flood/#", qos: .atLeastOnce) { _ in received.add(1, ordering: .relaxed) }
            try await leaver.connect(timeout: .seconds(60))
            #expect(await eventually { received.load(ordering: .relaxed) > 100 })
            // Returns once the broker closed the connection, having read DISCONNECT.
            await leaver.shutdown(sessionExpiry: 0)
            if try await broker.sessionPresent(clientId: id) { left.append(round) }
        }
        flood.cancel()
        _ = await flood.value
        #expect(left.isEmpty, "sessions left behind in rounds \(left)")
        await flooder.shutdown(flushTimeout: .zero)
    }
}
