import Foundation
@testable import GuardianGeofence
import GuardianShared
import GuardianTestSupport
import MQTT

/// A real broker, one or more geofence instances in-process, an admin client and an observer.
final class GeofenceHarness: @unchecked Sendable {
    let broker: TestBroker
    let admin: MQTTClient
    let geofenceEvents: MessageCollector
    let waypoints: MessageCollector
    let errors: MessageCollector
    var instances: [(service: GeofenceService, task: Task<Void, any Error>, data: TemporaryDirectory, shard: String)] = []

    init(broker: TestBroker? = nil) async throws {
        self.broker = try broker ?? TestBroker()
        admin = try await self.broker.connectedClient("admin-\(UUID().uuidString.prefix(6))")
        geofenceEvents = try await MessageCollector(admin, "guardian/geofence/#")
        waypoints = try await MessageCollector(admin, "owntracks/+/+/cmd")
        errors = try await MessageCollector(admin, "guardian/errors/geofence")
    }

    /// Starts an instance and waits until it is online (its subscriptions are in place).
    @discardableResult
    func start(shard: String = "0/1", instance: String = "g0", data: TemporaryDirectory? = nil, environment: [String: String] = [:]) async throws
        -> GeofenceService
    {
        let directory = try data ?? TemporaryDirectory()
        let config = try broker.serviceConfig(
            service: "geofence", dataDirectory: directory.url, instance: instance, extra: environment.merging(["GUARDIAN_SHARD": shard]) { a, _ in a })
        let service = try GeofenceService(config: config, logger: .quiet)
        let task = try await startInProcess(service, name: "geofence", instance: instance, observer: admin)
        instances.append((service, task, directory, shard))
        return service
    }

    /// Stops every instance; with `crash`, as a crash would. Returns their data directories.
    @discardableResult
    func stopAll(crash: Bool = false) async -> [TemporaryDirectory] {
        let stopped = instances
        instances = []
        for instance in stopped {
            if crash { await instance.service.crash() }
            instance.task.cancel()
            _ = try? await instance.task.value
        }
        return stopped.map(\.data)
    }

    func zone(_ id: String, _ zone: DangerZone) async throws {
        try await admin.publish("guardian/zones/\(id)", payload: GuardianJSON.encode(zone), retain: true)
    }

    func deleteZone(_ id: String) async throws {
        try await admin.publish("guardian/zones/\(id)", payload: Data(), retain: true)
    }

    /// Publishes a location event as ingest would.
    func fix(_ deviceId: String, lat: Double, lon: Double, at seconds: Int, acc: Double? = 10, ownTracks: OwnTracksOrigin? = nil) async throws {
        let ts = Timestamp(secondsSinceEpoch: Double(1_795_000_000 + seconds))
        let event = DeviceEvent(
            id: "\(deviceId)-\(seconds)", deviceId: deviceId, ts: ts, receivedAt: ts,
            body: Location(lat: lat, lon: lon, acc: acc, ownTracks: ownTracks))
        try await admin.publish("guardian/events/\(deviceId)/location", payload: GuardianJSON.encode(event))
    }

    func transition(_ deviceId: String, _ transition: PhoneTransition, at seconds: Int) async throws {
        let ts = Timestamp(secondsSinceEpoch: Double(1_795_000_000 + seconds))
        let event = DeviceEvent(id: "\(deviceId)-t\(seconds)", deviceId: deviceId, ts: ts, receivedAt: ts, body: transition)
        try await admin.publish("guardian/events/\(deviceId)/transition", payload: GuardianJSON.encode(event))
    }

    /// Geofence events received so far, decoded.
    var events: [GeofenceEvent] { geofenceEvents.all.compactMap { try? JSONDecoder().decode(GeofenceEvent.self, from: $0.payload) } }

    /// Waits until `count` events arrived, then a moment more to catch any extra.
    func settledEvents(_ count: Int) async -> [GeofenceEvent] {
        await geofenceEvents.wait(for: count)
        _ = await geofenceEvents.settle(.milliseconds(400))
        return events
    }

    func shutdown() async {
        await stopAll()
        await admin.shutdown()
        broker.stop()
    }
}

/// A point `meters` north of (lat, lon).
func north(of lat: Double, _ lon: Double, meters: Double) -> (Double, Double) {
    (lat + meters / 111_194.93, lon)
}
