import CMosquitto
import Foundation
import Logging
import Synchronization

/// An MQTT 5 client over libmosquitto.
///
/// A dedicated network thread runs libmosquitto's packet handling (see `MQTTConnection+Loop`) and
/// reconnects with backoff; with `acknowledgesAfterPublishing`, a second connection, with a thread
/// of its own, carries the publishes (see `PublishFence`). Publishes,
/// subscriptions and callbacks are safe from any thread or task. Subscriptions are remembered and
/// renewed on every reconnect. Register subscriptions before `connect()` so that messages the broker
/// queued for a persistent session while the client was away have somewhere to go.
public final class MQTTClient: Sendable {
    public let configuration: MQTTConfiguration
    /// The session: subscriptions, the messages they bring and their acknowledgements, the will.
    let connection: MQTTConnection
    /// With `acknowledgesAfterPublishing`, the connection every publish goes out on.
    let publisher: MQTTConnection?

    public init(configuration: MQTTConfiguration, logger: Logger) throws(MQTTError) {
        self.configuration = configuration
        self.connection = try MQTTConnection(configuration: configuration, logger: logger)
        guard configuration.acknowledgesAfterPublishing else {
            publisher = nil
            return
        }
        do {
            publisher = try MQTTConnection(configuration: Self.publishing(configuration), logger: logger)
        } catch {
            connection.destroy()
            throw error
        }
    }

    /// The publishing connection's configuration: a clean session of its own (a fresh client id
    /// for each client, so that a session handed over never takes its owner's publisher over),
    /// without a will or subscriptions.
    static func publishing(_ configuration: MQTTConfiguration) -> MQTTConfiguration {
        var publishing = configuration
        publishing.clientId = "\(configuration.clientId)-out-\(UUID().uuidString.prefix(8).lowercased())"
        publishing.cleanStart = true
        publishing.sessionExpirySeconds = 0
        publishing.will = nil
        publishing.acknowledgesAfterPublishing = false
        // The session writes nothing while this connection's publishes await the broker, keep-alive
        // pings included: this one finds a dead connection (and reconnects) well before the broker
        // gives up on the silent session (1.5 times its keep-alive).
        publishing.keepAliveSeconds = max(5, configuration.keepAliveSeconds / 3)
        return publishing
    }

    deinit {
        connection.destroy()
        publisher?.destroy()
    }

    /// Starts the network thread and waits until the broker accepts the connection (with a
    /// publishing connection, both).
    /// Network failures are retried with backoff; a refusal by the broker (bad credentials) throws.
    public func connect(timeout: Duration? = nil) async throws(MQTTError) {
        try await connection.connect(timeout: timeout)
        guard let publisher else { return }
        // On one connection the broker reads a publish after the subscriptions sent before it (a
        // service's presence comes back after the retained presences of its peers, a barrier after
        // what its session holds); across two, only once they are answered. What was published before
        // connecting waits for the publishing connection meanwhile, and so does what handlers publish.
        await connection.awaitPendingSubscriptions(timeout: timeout ?? .seconds(60))
        try await publisher.connect(timeout: timeout)
    }

    /// True while a connection is established and accepted (both, with a publishing connection).
    public var isConnected: Bool { connection.isConnected && publisher?.isConnected != false }

    /// Where publishes go out.
    var publishing: MQTTConnection { publisher ?? connection }

    /// Publishes and returns once the broker has acknowledged it (QoS 1/2) or it was sent (QoS 0).
    /// While disconnected, QoS 1 messages are queued and sent on reconnect.
    public func publish(_ message: MQTTOutgoing) async throws(MQTTError) {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Void, MQTTError>, Never>) in
            publishing.publish(message) { continuation.resume(returning: $0) }
        }
        try result.get()
    }

    /// Publishes without waiting; `onComplete` runs on the network thread when the broker acknowledges
    /// (or at once, on a local error). Safe to call from a synchronous message handler.
    public func publish(_ message: MQTTOutgoing, onComplete: @escaping @Sendable (Result<Void, MQTTError>) -> Void) {
        publishing.publish(message, onComplete: onComplete)
    }

    /// Convenience: publish `payload` on `topic`.
    public func publish(
        _ topic: String, payload: Data, qos: MQTTQoS = .atLeastOnce, retain: Bool = false,
        properties: MQTTProperties = MQTTProperties()
    ) async throws(MQTTError) {
        try await publish(MQTTOutgoing(topic: topic, payload: payload, qos: qos, retain: retain, properties: properties))
    }

    /// Subscribes and returns the messages as an `AsyncSequence`. When connected, returns after the
    /// broker granted the subscription; before `connect()`, the subscription is sent on connect.
    public func subscribe(
        _ filter: String, qos: MQTTQoS = .atLeastOnce, options: MQTTSubscribeOptions = MQTTSubscribeOptions()
    ) async throws(MQTTError) -> MQTTSubscription {
        let (stream, continuation) = AsyncStream<MQTTMessage>.makeStream()
        let id = try connection.register(filter: filter, qos: qos, options: options, delivery: .stream(continuation))
        continuation.onTermination = { [connection] _ in connection.unregister(id: id) }
        try await connection.awaitSubscribed(id: id)
        return MQTTSubscription(filter: filter, stream: stream)
    }

    /// Subscribes with a handler run synchronously on the network thread, before the message is
    /// acknowledged to the broker: a crash while handling leaves the message with the broker.
    /// The handler must not wait for anything the network thread does (e.g. an awaited publish).
    @discardableResult
    public func subscribe(
        _ filter: String, qos: MQTTQoS = .atLeastOnce, options: MQTTSubscribeOptions = MQTTSubscribeOptions(),
        handler: @escaping @Sendable (MQTTMessage) -> Void
    ) async throws(MQTTError) -> UInt32 {
        let id = try connection.register(filter: filter, qos: qos, options: options, delivery: .handler(handler))
        try await connection.awaitSubscribed(id: id)
        return id
    }

    /// Subscribes with a handler that receives, in order, every message read in one burst from the
    /// socket, synchronously on the network thread and before any of them is acknowledged to the
    /// broker: a service can store a whole burst in one transaction. The same rules as for
    /// `subscribe(_:qos:options:handler:)` apply. Plain handlers run as each message is read, burst
    /// handlers when the read ends: across subscriptions, a plain handler may see a message that
    /// arrived after one still waiting for its burst handler (services use plain handlers for state
    /// such as zones, preferences and replies, where that makes no difference).
    @discardableResult
    public func subscribeInBursts(
        _ filter: String, qos: MQTTQoS = .atLeastOnce, options: MQTTSubscribeOptions = MQTTSubscribeOptions(),
        handler: @escaping @Sendable ([MQTTMessage]) -> Void
    ) async throws(MQTTError) -> UInt32 {
        let id = try connection.register(filter: filter, qos: qos, options: options, delivery: .burstHandler(handler))
        try await connection.awaitSubscribed(id: id)
        return id
    }

    /// Runs all the burst handlers of each network turn inside `scope`, which must call `deliver`
    /// exactly once: e.g. one database transaction for every subscription's burst of the turn, still
    /// before any of the turn's messages is acknowledged. `messages` are the turn's messages for burst
    /// handlers, for the scope to report should it fail.
    public func handleBursts(within scope: @escaping @Sendable (_ messages: [MQTTMessage], _ deliver: () -> Void) -> Void) {
        connection.state.withLock { $0.burstScope = scope }
    }

    /// Removes a subscription made with a handler.
    public func unsubscribe(id: UInt32) { connection.unregister(id: id) }

    /// Disconnects. With `flushTimeout`, waits first for outstanding QoS 1 publishes to be acknowledged.
    /// With `sendWill`, disconnects as if the connection had dropped: the broker publishes the will.
    /// With `sessionExpiry`, replaces the session's expiry on DISCONNECT (0: the broker deletes the session).
    /// Returns once the broker has closed the connection after reading DISCONNECT (5 s at most).
    public func shutdown(flushTimeout: Duration = .seconds(5), sendWill: Bool = false, sessionExpiry: UInt32? = nil) async {
        guard let publisher else {
            return await connection.shutdown(flushTimeout: flushTimeout, sendWill: sendWill, sessionExpiry: sessionExpiry)
        }
        // What was published goes out before the session ends; what the session's last turns publish, after.
        let deadline = ContinuousClock.now + flushTimeout
        if !sendWill { await publisher.drain(timeout: flushTimeout) }
        await connection.shutdown(flushTimeout: .zero, sendWill: sendWill, sessionExpiry: sessionExpiry)
        await publisher.shutdown(flushTimeout: max(.zero, deadline - ContinuousClock.now), sendWill: sendWill)
    }

    /// Initialises libmosquitto now, as the first client would. That first initialisation seeds the
    /// C library's `rand()` (process-wide): code that needs a reproducible `rand()` sequence (libsvm's
    /// training) calls this before seeding it, so a client created meanwhile cannot reseed it halfway.
    public static func prepareLibrary() { _ = MQTTConnection.libraryReady }

    /// Counters since the client was created.
    public var statistics: MQTTStatistics {
        guard let publisher else { return connection.statistics }
        var statistics = connection.statistics
        let published = publisher.statistics
        (statistics.published, statistics.acknowledged, statistics.pendingPublishes) =
            (published.published, published.acknowledged, published.pendingPublishes)
        return statistics
    }
}

/// Counters of one client.
public struct MQTTStatistics: Sendable, Equatable {
    public var received = 0
    public var published = 0
    public var acknowledged = 0
    public var connects = 0
    public var pendingPublishes = 0
}
