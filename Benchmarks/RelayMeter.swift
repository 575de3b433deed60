import Foundation
import GuardianTestSupport
import MQTT
import Synchronization

/// Publishes payloads as fast as QoS 1 allows and measures how long until a subscriber has them all.
struct RelayMeter {
    let broker: TestBroker

    /// Messages per second from the first publish to the `expected`-th arrival on `filter`.
    func measure(
        publishTo topic: (Int) -> String, payloads: [Data], filter: String, expected: Int, timeout: Duration = .seconds(120)
    ) async throws -> Double {
        let publisher = try await broker.connectedClient("bench-pub-\(UUID().uuidString.prefix(6))")
        let subscriber = try await broker.connectedClient("bench-sub-\(UUID().uuidString.prefix(6))")
        let received = Atomic<Int>(0)
        let done = AsyncStream<Void>.makeStream()
        try await subscriber.subscribe(filter) { _ in
            if received.add(1, ordering: .relaxed).newValue == expected { done.continuation.yield() }
        }
        let start = ContinuousClock.now
        let window = PublishWindow(limit: 1000)
        for (i, payload) in payloads.enumerated() {
            await window.acquire()
            publisher.publish(MQTTOutgoing(topic: topic(i), payload: payload)) { _ in window.release() }
        }
        let waiter = Task { for await _ in done.stream { return true }; return false }
        let timer = Task { try await Task.sleep(for: timeout); done.continuation.finish() }
        let completed = await waiter.value
        timer.cancel()
        let elapsed = ContinuousClock.now - start
        await publisher.shutdown()
        await subscriber.shutdown()
        guard completed else { throw BenchmarkError.incomplete(received: received.load(ordering: .relaxed), expected: expected) }
        return Double(expected) / elapsed.seconds
    }
}

enum BenchmarkError: Error, CustomStringConvertible {
    case incomplete(received: Int, expected: Int)
    case notReady(String)
    var description: String {
        switch self {
        case .incomplete(let received, let expected): return "only \(received) of \(expected) messages arrived"
        case .notReady(let what): return "\(what) did not start"
        }
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
