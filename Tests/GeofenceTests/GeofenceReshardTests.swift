import Foundation
@testable import GuardianGeofence
import GuardianShared
import GuardianTestSupport
import MQTT
import Testing

extension GeofenceHarness {
    /// Stops one instance gracefully (as SIGTERM would); returns its data directory.
    func stop(instance id: String) async -> TemporaryDirectory? {
        guard let index = instances.firstIndex(where: { $0.service.runtime.config.instanceId == id }) else { return nil }
        let instance = instances.remove(at: index)
        await stopInProcess(instance.task)
        return instance.data
    }

    /// Publishes `fixes` as ingest would, in order.
    func publish(_ fixes: ArraySlice<MQTTOutgoing>) async throws {
        for fix in fixes { try await admin.publish(fix) }
    }
}

/// Geofence re-sharded 1 → 2 → 1 while devices publish: each device's visits as without re-sharding.
@Suite("geofence re-sharding over a real mosquitto")
struct GeofenceReshardTests {
    static let start: Int64 = 1_795_000_000_000

    /// Each device walks into its own zone, stays 6 minutes (a dwell) and leaves, again and again:
    /// every fix gives one geofence event, and each depends on the state the fixes before it left.
    static func stream(devices: Int, visits: Int) -> [MQTTOutgoing] {
        var stream: [MQTTOutgoing] = []
        for v in 0..<visits {
            for (step, outside) in [(0, false), (360, false), (420, true)] {
                for d in 0..<devices {
                    let ts = Timestamp(milliseconds: start + Int64(v * 600 + step) * 1000)
                    let fix = Location(lat: 10 + Double(d) * 0.1 + (outside ? 0.01 : 0), lon: 10, acc: 10)
                    let event = DeviceEvent(id: "f-\(d)-\(v)-\(step)", deviceId: "dev-\(d)", ts: ts, receivedAt: ts, body: fix)
                    stream.append(MQTTOutgoing(topic: "guardian/events/dev-\(d)/location", payload: GuardianJSON.encode(event)))
                }
            }
        }
        return stream
    }

    static func zones(_ h: GeofenceHarness, devices: Int) async throws {
        for d in 0..<devices { try await h.zone("zone-\(d)", DangerZone(name: "Shop \(d)", lat: 10 + Double(d) * 0.1, lon: 10, radius: 100)) }
    }

    /// Each device's geofence events as "id type dwell", sorted; a repeat of an id (the outbox
    /// resending after a restart, which consumers drop by id) counts once.
    static func visitsByDevice(_ events: [GeofenceEvent]) -> [String: [String]] {
        var byDevice: [String: Set<String>] = [:]
        for event in events { byDevice[event.deviceId, default: []].insert("\(event.id) \(event.type) \(event.dwellSeconds)") }
        return byDevice.mapValues { $0.sorted() }
    }

    @Test("1 → 2 → 1 shards while devices publish: every device's geofence events as with one shard, none lost or doubled")
    func reshardWhilePublishing() async throws {
        let devices = 24, visits = 12
        let stream = Self.stream(devices: devices, visits: visits)
        let expectedCount = devices * visits * 3

        // Without re-sharding.
        let control = try await GeofenceHarness()
        try await Self.zones(control, devices: devices)
        try await control.start(shard: "0/1", instance: "g0")
        try await control.publish(stream[...])
        let expected = Self.visitsByDevice(await control.settledEvents(expectedCount))
        await control.shutdown()
        #expect(expected.values.map(\.count).reduce(0, +) == expectedCount)

        // 1 → 2 → 1, each move while a fifth of the stream is published.
        let h = try await GeofenceHarness()
        let watch = try await ShardMoveWatch(h.admin, service: "geofence")
        try await Self.zones(h, devices: devices)
        let fifth = stream.count / 5
        try await h.start(shard: "0/1", instance: "g0")
        try await h.publish(stream[..<fifth])

        async let toTwo: GeofenceService = h.start(shard: "1/2", instance: "g1")
        try await h.publish(stream[fifth..<(2 * fifth)])
        _ = try await toTwo
        #expect(await watch.waitSettled(count: 2, instances: ["g0", "g1"]), "the move to 2 shards did not finish")
        try await h.publish(stream[(2 * fifth)..<(3 * fifth)])

        let data = await h.stop(instance: "g0")
        async let backToOne: GeofenceService = h.start(shard: "0/1", instance: "g0", data: data)
        try await h.publish(stream[(3 * fifth)..<(4 * fifth)])
        _ = try await backToOne
        #expect(await watch.waitSettled(count: 1, instances: ["g0", "g1"], ownNothing: ["g1"]), "the move back to 1 shard did not finish")
        _ = await h.stop(instance: "g1")
        try await h.publish(stream[(4 * fifth)...])

        let resharded = Self.visitsByDevice(await h.settledEvents(expectedCount))
        for d in 0..<devices {
            let id = "dev-\(d)"
            #expect(resharded[id] == expected[id], "\(id): \(resharded[id]?.count ?? 0) events, \(expected[id]?.count ?? 0) without re-sharding")
        }
        let moved = h.instances.first?.service.counters
        #expect((moved?["adopted"] ?? 0) > 0, "no device came back to g0 from g1")
        // g1 owned nothing when it stopped: it ended its session (looked at once the rest of the stream
        // went through the broker, which had read its DISCONNECT by then).
        #expect(try await h.broker.sessionPresent(clientId: "geofence-g1") == false, "the retired shard left its session collecting events")
        await h.shutdown()
    }

    /// The goal: 0 devices with state lost over at least 1,000 devices; prints how long each move takes.
    @Test("1,000 devices moved 1 → 2 → 1: every device's open visit survives both moves; the moves' durations printed")
    func thousandDevices() async throws {
        let devices = 1000
        let zone = DangerZone(name: "Park", lat: 10, lon: 10, radius: 200)
        func fixes(at seconds: Int, outside: Bool) -> [MQTTOutgoing] {
            (0..<devices).map { d in
                let ts = Timestamp(milliseconds: Self.start + Int64(seconds) * 1000)
                let body = Location(lat: outside ? 10.02 : 10 + Double(d % 50) * 0.00001, lon: 10, acc: 10)
                let event = DeviceEvent(id: "k-\(d)-\(seconds)", deviceId: "kid-\(d)", ts: ts, receivedAt: ts, body: body)
                return MQTTOutgoing(topic: "guardian/events/kid-\(d)/location", payload: GuardianJSON.encode(event))
            }
        }
        let h = try await GeofenceHarness()
        let watch = try await ShardMoveWatch(h.admin, service: "geofence")
        try await h.zone("park", zone)
        try await h.start(shard: "0/1", instance: "g0")
        try await h.publish(fixes(at: 0, outside: false)[...])  // every device enters
        await h.geofenceEvents.wait(for: devices)

        let clock = ContinuousClock()
        var began = clock.now
        try await h.start(shard: "1/2", instance: "g1")
        #expect(await watch.waitSettled(count: 2, instances: ["g0", "g1"]), "the move to 2 shards did not finish")
        let toTwo = began.duration(to: clock.now)
        let movedToTwo = h.instances.last?.service.counters["adopted"] ?? 0
        try await h.publish(fixes(at: 360, outside: false)[...])  // a dwell, only for a device whose visit moved with it
        await h.geofenceEvents.wait(for: 2 * devices)

        began = clock.now
        let data = await h.stop(instance: "g0")
        try await h.start(shard: "0/1", instance: "g0", data: data)
        #expect(await watch.waitSettled(count: 1, instances: ["g0", "g1"], ownNothing: ["g1"]), "the move back to 1 shard did not finish")
        let backToOne = began.duration(to: clock.now)
        let movedBack = h.instances.last?.service.counters["adopted"] ?? 0
        _ = await h.stop(instance: "g1")
        try await h.publish(fixes(at: 420, outside: true)[...])  // an exit, only for a device whose visit moved back

        let events = await h.settledEvents(3 * devices)
        for type in [GeofenceEvent.Kind.enter, .dwell, .exit] {
            let devicesWith = Set(events.filter { $0.type == type }.map(\.deviceId))
            #expect(devicesWith.count == devices, "\(devices - devicesWith.count) devices without their \(type)")
        }
        let distinct = Set(events.map(\.id)).count
        #expect(distinct == 3 * devices, "\(distinct - 3 * devices) events more than one enter, dwell and exit each")
        print("re-sharding geofence, \(devices) devices: 1 → 2 shards moved \(movedToTwo) devices in \(toTwo) (from starting the new shard); 2 → 1 moved \(movedBack) in \(backToOne) (from stopping shard 0 to restart it as 0/1)")
        await h.shutdown()
    }
}
