import MQTT
import Synchronization

/// A subscription opened for one question (a reply, a response, a retained state): what it has
/// received, in order, and a way to wait for a message; unsubscribed by `close()`.
final class Inbox: Sendable {
    private let client: MQTTClient
    private let received = Mutex<[MQTTMessage]>([])
    private let arrivals = AsyncStream<MQTTMessage>.makeStream()
    private let subscription = Mutex<UInt32?>(nil)

    private init(client: MQTTClient) { self.client = client }

    /// Subscribes to `filter` and returns once the broker granted it (its retained messages follow);
    /// throws `.brokerUnreachable(consequence)` as soon as `stillUp()` fails.
    static func open(
        _ filter: String, on client: MQTTClient, while stillUp: @escaping @Sendable () -> Bool, limit: Duration, consequence: String
    ) async throws(BridgeError) -> Inbox {
        let inbox = Inbox(client: client)
        let id = try await whileConnected(
            stillUp, limit: limit, lost: .brokerUnreachable(consequence), late: .brokerUnreachable("it did not answer a subscription; \(consequence)")
        ) {
            try await client.subscribe(filter) { inbox.deliver($0) }
        } abandon: { client.unsubscribe(id: $0) }
        inbox.subscription.withLock { $0 = id }
        return inbox
    }

    private func deliver(_ message: MQTTMessage) {
        received.withLock { $0.append(message) }
        arrivals.continuation.yield(message)
    }

    /// Everything received so far.
    var messages: [MQTTMessage] { received.withLock { $0 } }

    /// The first message `match` accepts, arrived or to come; nil once closed or cancelled.
    func first<T>(_ match: (MQTTMessage) -> T?) async -> T? {
        for await message in arrivals.stream {
            if let found = match(message) { return found }
        }
        return nil
    }

    /// Unsubscribes; a wait in `first` ends.
    func close() {
        if let id = subscription.withLock({ $0.take() }) { client.unsubscribe(id: id) }
        arrivals.continuation.finish()
    }
}
