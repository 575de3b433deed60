import Foundation
import MQTT

extension BusRuntime {
    /// Subscribes `handle` to `filter` message by message, but with every burst of messages read
    /// together handled inside one transaction of `store`, committed before any of them is
    /// acknowledged to the broker (and before anything they publish leaves): one commit per burst
    /// instead of one per message.
    public func subscribe(
        _ filter: String, options: MQTTSubscribeOptions = MQTTSubscribeOptions(), committingTo store: ServiceStore,
        handle: @escaping @Sendable (MQTTMessage) -> Void
    ) async throws {
        try await client.subscribeInBursts(filter, qos: .atLeastOnce, options: options) { [self] messages in
            self.handle(messages, committingTo: store, handle)
        }
    }

    /// Every network turn's burst handlers (of every subscription) share one transaction of `store`:
    /// one commit per turn, however many subscriptions the turn's messages came through.
    public func commitEachTurn(to store: ServiceStore) {
        client.handleBursts { [self] messages, deliver in
            do {
                try store.inOneTransaction(deliver)
            } catch {
                reportNotStored(messages, error)
            }
        }
    }

    /// Handles `messages` one by one inside one transaction of `store`; if the commit fails, reports
    /// each of them as not stored.
    public func handle(_ messages: [MQTTMessage], committingTo store: ServiceStore, _ handle: (MQTTMessage) -> Void) {
        do {
            try store.inOneTransaction { for message in messages { handle(message) } }
        } catch {
            reportNotStored(messages, error)
        }
    }

    private func reportNotStored(_ messages: [MQTTMessage], _ error: any Error) {
        logger.error("cannot store a burst of messages", metadata: [LogKey.error: "\(error)", LogKey.count: "\(messages.count)"])
        for message in messages { reportError(topic: message.topic, reason: "not stored: \(error)", payload: message.payload) }
    }
}
