import Foundation
import GuardianShared
import Logging
import MQTT
import ServiceLifecycle

/// The ingest service: validates device uploads and OwnTracks messages, stores what it accepts,
/// and republishes normalised events on `guardian/events/{deviceId}/{kind}`.
public final class IngestService: Service, Sendable {
    public static let name = "ingest"

    /// What ingest keeps: accepted events, which are also its de-duplication record.
    /// (`GUARDIAN_INGEST_RETENTION_DAYS`, the earlier name, is still read.)
    static let retainedKinds = [RetentionPolicy.Kind("events", days: 30)]

    let runtime: BusRuntime
    let pipeline: IngestPipeline
    let privacy: PrivacyDesk

    public init(config: GuardianConfig, logger: Logger, clock: ServiceClock = .system) throws {
        runtime = try BusRuntime(service: Self.name, config: config, logger: logger, coalescingPause: BusRuntime.pauseUnderLoad)
        let store = try IngestStore(config: config, logger: runtime.logger)
        var kinds = Self.retainedKinds
        if let days = try IngestSettings(settings: config.settings).legacyEventRetentionDays {
            kinds = [RetentionPolicy.Kind("events", days: days)]
        }
        privacy = try PrivacyDesk(runtime: runtime, store: store.store, kinds: kinds, sharded: false, clock: clock)
        pipeline = IngestPipeline(runtime: runtime, store: store, privacy: privacy)
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
        try await privacy.open(for: self)
        try await runtime.start()

        await withTaskGroup(of: Void.self) { group in
            group.addTask { [pipeline] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: .milliseconds(100))
                    pipeline.flushAcknowledged()
                }
            }
            group.addTask { [pipeline] in
                while !Task.isCancelled {
                    try? pipeline.store.store.checkpoint()
                    try? await Task.sleep(for: .seconds(5))
                }
            }
            group.addTask { [privacy] in await privacy.runSweeping() }
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
}
