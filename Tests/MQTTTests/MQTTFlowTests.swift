import Foundation
import GuardianTestSupport
import MQTT
import Synchronization
import Testing

@Suite("MQTT client: the publish window and burst handlers")
struct MQTTFlowTests {
    @Test("70,000 QoS 1 publishes made while the broker is down (more than libmosquitto's 65,535 message ids) arrive once each, in order, and each one's completion runs")
    func moreThanMessageIds() async throws {
        let broker = try TestBroker()
        let count = 70_000
        let received = Mutex<[Int]>([])
        let subscriber = try MQTTClient(configuration: broker.configuration("flood-sub", cleanStart: false), logger: .quiet)
        try await subscriber.subscribe("flood/x") { message in
            received.withLock { $0.append(Int(String(decoding: message.payload, as: UTF8.self)) ?? -1) }
        }
        try await subscriber.connect(timeout: .seconds(60))
        let publisher = try await broker.connectedClient(Self.floodPublisher, cleanStart: false)
        broker.stop()
        let acknowledged = Atomic<Int>(0)
        for i in 0..<count {
            publisher.publish(MQTTOutgoing(topic: "flood/x", payload: Data("\(i)".utf8))) { result in
                if case .success = result { acknowledged.add(1, ordering: .relaxed) }
            }
        }
        try broker.start()
        let deadline = ContinuousClock.now + .seconds(300)
        while received.withLock({ $0.count }) < count && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        // The publisher's acknowledgements complete on its own thread, possibly after the subscriber has all.
        let completed = await eventually(.seconds(120)) { acknowledged.load(ordering: .relaxed) == count && publisher.statistics.pendingPublishes == 0 }
        try await Task.sleep(for: .milliseconds(200))  // anything extra would arrive now
        let values = received.withLock { $0 }
        #expect(values.count == count)
        #expect(values == Array(0..<count))
        #expect(completed, "\(acknowledged.load(ordering: .relaxed)) of \(count) completions, \(publisher.statistics.pendingPublishes) pending")
        await publisher.shutdown()
        await subscriber.shutdown()
    }

    static let floodPublisher = "flood-pub"

    @Test("a burst handler gets every message once, in order, several to a call when they arrive together")
    func bursts() async throws {
        let broker = try TestBroker()
        let count = 5_000
        let calls = Mutex<[[Int]]>([])
        let subscriber = try await broker.connectedClient("burst-sub")
        try await subscriber.subscribeInBursts("burst/#") { messages in
            calls.withLock { $0.append(messages.map { Int(String(decoding: $0.payload, as: UTF8.self)) ?? -1 }) }
        }
        let publisher = try await broker.connectedClient("burst-pub")
        let acknowledged = Atomic<Int>(0)
        for i in 0..<count {
            publisher.publish(MQTTOutgoing(topic: "burst/\(i % 7)", payload: Data("\(i)".utf8))) { _ in acknowledged.add(1, ordering: .relaxed) }
        }
        let deadline = ContinuousClock.now + .seconds(120)
        while calls.withLock({ $0.joined().count }) < count && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        let seen = calls.withLock { $0 }
        #expect(Array(seen.joined()) == Array(0..<count))
        #expect(seen.count < count, "some reads should carry several messages")
        #expect(seen.allSatisfy { !$0.isEmpty })
        await publisher.shutdown()
        await subscriber.shutdown()
    }

    @Test("with a coalescing pause, turns that read something are a pause apart and take what arrived meanwhile; the burst scope wraps every subscription's handlers of the turn")
    func coalescedTurns() async throws {
        let broker = try TestBroker()
        let later = 10
        struct Turn { var at: ContinuousClock.Instant; var messages: [Int]; var handled: [Int] = [] }
        let turns = Mutex<[Turn]>([])
        let outsideScope = Atomic<Int>(0)
        let inScope = Mutex(false)
        let pause = Duration.seconds(1)
        var configuration = broker.configuration("coalesce-sub")
        configuration.coalescingPause = pause
        let subscriber = try MQTTClient(configuration: configuration, logger: .quiet)
        @Sendable func number(_ message: MQTTMessage) -> Int { Int(String(decoding: message.payload, as: UTF8.self)) ?? -1 }
        subscriber.handleBursts { messages, deliver in
            turns.withLock { $0.append(Turn(at: .now, messages: messages.map(number))) }
            inScope.withLock { $0 = true }
            deliver()
            inScope.withLock { $0 = false }
        }
        for filter in ["coalesce/a", "coalesce/b"] {
            try await subscriber.subscribeInBursts(filter) { messages in
                if !inScope.withLock({ $0 }) { outsideScope.add(1, ordering: .relaxed) }
                turns.withLock { $0[$0.count - 1].handled += messages.map(number) }
            }
        }
        try await subscriber.connect(timeout: .seconds(60))
        let publisher = try await broker.connectedClient("coalesce-pub")
        func publish(_ i: Int) { publisher.publish(MQTTOutgoing(topic: i % 2 == 0 ? "coalesce/a" : "coalesce/b", payload: Data("\(i)".utf8))) { _ in } }
        func waitForHandled(_ count: Int) async throws {
            let deadline = ContinuousClock.now + .seconds(120)
            while turns.withLock({ $0.map(\.handled.count).reduce(0, +) }) < count && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(10))
            }
        }
        publish(0)
        try await waitForHandled(1)
        for i in 1...later { publish(i) }  // arrive within the pause that follows the first turn (or the next one)
        try await waitForHandled(later + 1)
        let seen = turns.withLock { $0 }
        #expect(seen.flatMap(\.messages) == Array(0...later))
        #expect(seen.allSatisfy { $0.handled.sorted() == $0.messages.sorted() }, "each turn's handlers see exactly the scope's messages")
        #expect(outsideScope.load(ordering: .relaxed) == 0)
        for (earlier, next) in zip(seen, seen.dropFirst()) {
            #expect(next.at - earlier.at >= pause * 0.9, "turns \(earlier.messages) and \(next.messages) only \(next.at - earlier.at) apart")
        }
        #expect(seen.contains { $0.messages.count > 1 }, "messages that arrived during a pause are taken in one turn: \(seen.map(\.messages))")
        await publisher.shutdown()
        await subscriber.shutdown()
    }

    @Test("a publish from another thread wakes the network thread sleeping in poll")
    func wakesPromptly() async throws {
        let broker = try TestBroker()
        let subscriber = try await broker.connectedClient("wake-sub")
        let collector = try await MessageCollector(subscriber, "wake/#")
        // Idle, the network thread would sleep 120 s: only the wake-up lets a publish out in less than
        // half of that, however slow the machine.
        var configuration = broker.configuration("wake-pub")
        configuration.idlePollInterval = .seconds(120)
        let publisher = try MQTTClient(configuration: configuration, logger: .quiet)
        try await publisher.connect(timeout: .seconds(60))
        for i in 0..<5 {
            try await Task.sleep(for: .milliseconds(200))  // asleep in poll again
            let start = ContinuousClock.now
            try await publisher.publish("wake/\(i)", payload: Data("\(i)".utf8))
            let woken = ContinuousClock.now - start < .seconds(60)
            #expect(woken, "publish \(i) waited for the poll timeout")
            if !woken { break }
        }
        #expect(await collector.wait(for: 5).count == 5)
        await publisher.shutdown()
        await subscriber.shutdown()
    }
}
