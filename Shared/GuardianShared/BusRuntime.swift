import Foundation
import Logging
import MQTT
import ServiceLifecycle
import Synchronization

/// What every service shares: its MQTT client (persistent session, offline will), the topics,
/// counters, error reports and presence. A service registers its subscriptions, then `start()`s.
public final class BusRuntime: Sendable {
    public let service: String
    public let config: GuardianConfig
    public let logger: Logger
    public let client: MQTTClient
    public let topics: Topics
    public let counters = Counters()
    /// Hands departed replicas' sessions over, and leaves at once when stopping beside a live one.
    public let handover: SessionHandover
    public let startedAt = Timestamp.now()
    /// Set by a sharded service's hand-off while the instance owns no device and has handed every one
    /// off (`ShardHandoff`): stopping then ends its session, so nothing collects messages for it.
    private let retired = Atomic<Bool>(false)

    /// The pause for a service whose every message costs a commit and an acknowledgement (ingest,
    /// geofence, notifier): under load a turn then takes many messages in one transaction and one
    /// corked write, instead of one or two. Measured with `make bench` (issue 19): ingest went from
    /// 0.46–0.53 to 0.59–0.67 of the raw relay; idle latency is unchanged (the pause follows only a
    /// turn that read something).
    public static let pauseUnderLoad: Duration = .microseconds(200)

    /// `coalescingPause`: see `MQTTConfiguration.coalescingPause` (for a service whose turns under
    /// load are small and each cost a transaction; `pauseUnderLoad`).
    public init(service: String, config: GuardianConfig, logger: Logger, coalescingPause: Duration = .zero) throws {
        self.service = service
        self.config = config
        var logger = logger
        logger[metadataKey: LogKey.service] = "\(service)"
        logger[metadataKey: LogKey.instance] = "\(config.instanceId)"
        self.logger = logger
        topics = Topics(prefix: config.topicPrefix)
        let presenceTopic = topics.presence(service, config.instanceId)
        let will = MQTTOutgoing(
            topic: presenceTopic,
            payload: GuardianJSON.encode(
                Presence(
                    status: .offline, ts: startedAt, version: GuardianVersion.current, startedAt: startedAt, stats: [:],
                    shard: config.shard.count > 1 ? config.shard.description : nil)),
            qos: .atLeastOnce, retain: true)
        var mqtt = try config.mqttConfiguration(service: service, will: will)
        mqtt.coalescingPause = coalescingPause
        // What a handler publishes is at the broker before the message it handled is acknowledged.
        mqtt.acknowledgesAfterPublishing = true
        client = try MQTTClient(configuration: mqtt, logger: logger)
        handover = try SessionHandover(service: service, config: config, client: client, topics: topics, logger: logger)
    }

    /// Connects (retrying until the broker answers) and announces the instance online. A graceful
    /// shutdown while the broker has not answered yet ends the wait: `start()` then returns without
    /// connecting, and the service's run loop finds the shutdown already under way.
    public func start() async throws {
        try await handover.begin()
        let connected = try await withGracefulShutdownHandler {
            do {
                try await client.connect()
                return true
            } catch MQTTError.shutDown where Task.isShuttingDownGracefully {
                return false
            }
        } onGracefulShutdown: { [client, logger] in
            guard !client.isConnected else { return }
            logger.notice("stopping before the broker answered")
            Task { await client.shutdown(flushTimeout: .zero) }
        }
        guard connected else { return }
        publishPresence(.online)
        logger.info("service started", metadata: ["version": "\(GuardianVersion.current)"])
    }

    /// Publishes presence every stats interval (and trims the heap every few seconds) until
    /// graceful shutdown or cancellation.
    public func runUntilShutdown() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await HeapTrimmer.run(every: .seconds(5)) }
            group.addTask { [self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: config.statsInterval)
                    if Task.isCancelled { break }
                    publishPresence(.online)
                }
            }
            try? await gracefulShutdown()
            group.cancelAll()
        }
    }

    /// Announces the instance offline and disconnects after outstanding publishes are acknowledged.
    /// Beside a live replica with a lower id, it first leaves the shared subscriptions, ends its
    /// session and clears its presence (see `SessionHandover`). A sharded instance that owns nothing
    /// under the layout it follows, and has handed everything off, leaves the same way.
    public func stop() async {
        let left = await handover.leave() || retired.load(ordering: .acquiring)
        if left {
            client.publish(MQTTOutgoing(topic: topics.presence(service, config.instanceId), payload: Data(), retain: true)) { _ in }
        } else {
            publishPresence(.offline)
        }
        await client.shutdown(flushTimeout: .seconds(5), sessionExpiry: left ? 0 : nil)
        logger.info("service stopped")
    }

    /// Whether the instance owns nothing and has nothing left to hand off (see `stop()`).
    public func setRetired(_ value: Bool) { retired.store(value, ordering: .releasing) }

    /// Drops the connection as a crash would (no flush; the broker publishes the offline will). For tests.
    public func crash() async {
        handover.end()
        await client.shutdown(flushTimeout: .zero, sendWill: true)
    }

    /// Reports a rejected payload on `guardian/errors/{service}` and counts it.
    public func reportError(topic: String, reason: String, payload: Data) {
        counters.increment("rejected")
        let report = ErrorReport(service: service, topic: topic, reason: reason, payload: payload)
        logger.debug("rejected payload", metadata: [LogKey.topic: "\(topic)", LogKey.reason: "\(reason)"])
        client.publish(MQTTOutgoing(topic: topics.errors(service), payload: GuardianJSON.encode(report))) { [logger] result in
            if case .failure(let error) = result {
                logger.warning("cannot publish error report", metadata: [LogKey.error: "\(error)"])
            }
        }
    }

    public func publishPresence(_ status: Presence.Status) {
        var stats = counters.snapshot()
        let mqtt = client.statistics
        stats["mqttReceived"] = mqtt.received
        stats["mqttPublished"] = mqtt.published
        stats["mqttConnects"] = mqtt.connects
        let presence = Presence(
            status: status, ts: .now(), version: GuardianVersion.current, startedAt: startedAt, stats: stats,
            shard: config.shard.count > 1 ? config.shard.description : nil)
        client.publish(
            MQTTOutgoing(topic: topics.presence(service, config.instanceId), payload: GuardianJSON.encode(presence), retain: true)
        ) { _ in }
    }
}
