import Foundation
import GuardianShared
import Logging
import MQTT
import ServiceLifecycle

/// The ingest service: validates device uploads and OwnTracks messages, stores what it accepts,
/// and republishes normalised events on `guardian/events/{deviceId}/{kind}`.
public final class IngestService: Service, Sendable {
    public static let name = "ingest"

    let runtime: BusRuntime
    let pipeline: IngestPipeline
    let retention: Duration

    public init(config: GuardianConfig, logger: Logger) throws {
        runtime = try BusRuntime(service: Self.name, config: config, logger: logger)
        let store = try IngestStore(config: config, logger: runtime.logger)
        pipeline = IngestPipeline(runtime: runtime, store: store)
        let days = Int(config.environment["GUARDIAN_INGEST_RETENTION_DAYS"] ?? "") ?? 30
        retention = .seconds(max(1, days) * 86400)
    }

    /// Counters reported in presence: accepted, duplicates, rejected, republished, …
    public var counters: Counters { runtime.counters }

    public func run() async throws {
        // Events accepted before a crash but never acknowledged go out first; libmosquitto queues
        // them until the connection is up, ahead of anything received after it.
        let pending = try pipeline.store.unacknowledged()
        if !pending.isEmpty {
            runtime.logger.notice("republishing events left in the outbox", metadata: [LogKey.count: "\(pending.count)"])
        }
        for (rowID, event) in pending { pipeline.republish(event, rowID: rowID) }

        // Subscribed before connecting, so the broker's queue for this session is handled at once.
        let handler: @Sendable ([MQTTMessage]) -> Void = { [pipeline] in pipeline.handle(burst: $0) }
        for filter in [runtime.topics.deviceUploads, Topics.ownTracksLocations, Topics.ownTracksEvents] {
            try await runtime.client.subscribeInBursts(Topics.shared(Self.name, filter), qos: .atLeastOnce, handler: handler)
        }
        try await runtime.start()

        await withTaskGroup(of: Void.self) { group in
            group.addTask { [pipeline] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: .milliseconds(100))
                    pipeline.flushAcknowledged()
                }
            }
            group.addTask { [self] in
                var checkpoints = 0
                while !Task.isCancelled {
                    if checkpoints % 720 == 0 { prune() }
                    try? pipeline.store.store.checkpoint()
                    checkpoints += 1
                    try? await Task.sleep(for: .seconds(5))
                }
            }
            await runtime.runUntilShutdown()
            group.cancelAll()
        }
        await runtime.stop()
        pipeline.flushAcknowledged()
    }

    /// Drops the connection and stops as a crash would, without flushing (for restart tests).
    public func crash() async {
        await runtime.crash()
    }

    private func prune() {
        let cutoff = Timestamp.now().adding(seconds: -Double(retention.components.seconds))
        do {
            let removed = try pipeline.store.prune(receivedBefore: cutoff)
            if removed > 0 { runtime.logger.info("pruned old events", metadata: [LogKey.count: "\(removed)"]) }
        } catch {
            runtime.logger.error("cannot prune events", metadata: [LogKey.error: "\(error)"])
        }
    }
}
