import Foundation
import MQTT
import Synchronization

/// Collects what a subscription receives, so a test can wait for a number of messages.
public final class MessageCollector: Sendable {
    private let box = MessageBox()
    private let task: Mutex<Task<Void, Never>?> = Mutex(nil)

    /// Subscribes `client` to `filter` and starts collecting.
    public init(_ client: MQTTClient, _ filter: String, qos: MQTTQoS = .atLeastOnce) async throws {
        let subscription = try await client.subscribe(filter, qos: qos)
        let t = Task { [box] in
            for await message in subscription { box.append(message) }
        }
        task.withLock { $0 = t }
    }

    deinit { task.withLock { $0?.cancel() } }

    public var all: [MQTTMessage] { box.all }
    public var count: Int { box.all.count }

    /// Waits until at least `count` messages arrived and returns them all; `timeout` is a generous
    /// ceiling for when they never come, not a measure of speed.
    @discardableResult
    public func wait(for count: Int, timeout: Duration = .seconds(120)) async -> [MQTTMessage] {
        let deadline = ContinuousClock.now + timeout
        while self.count < count && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        return all
    }

    /// Waits for `duration` and returns whatever arrived, to check that nothing more comes: meaningful
    /// only after a positive control showed that what came before was handled.
    public func settle(_ duration: Duration = .milliseconds(300)) async -> [MQTTMessage] {
        try? await Task.sleep(for: duration)
        return all
    }

    /// Payloads decoded as JSON objects.
    public var objects: [[String: Any]] {
        all.compactMap { try? JSONSerialization.jsonObject(with: $0.payload) as? [String: Any] }
    }

    public func clear() { box.clear() }
}

final class MessageBox: Sendable {
    private let messages = Mutex<[MQTTMessage]>([])
    func append(_ message: MQTTMessage) { messages.withLock { $0.append(message) } }
    var all: [MQTTMessage] { messages.withLock { $0 } }
    func clear() { messages.withLock { $0.removeAll() } }
}
