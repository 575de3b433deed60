import Foundation
@testable import GuardianGeofence
import GuardianShared
import GuardianTestSupport
import MQTT
import Testing

@Suite("geofence over a real mosquitto")
struct GeofenceIntegrationTests {
    static let store = DangerZone(name: "Tech Store", lat: 48.0, lon: 11.0, radius: 200, merchant: "Tech Store", regretRate: 0.4)

    /// Approach from 1 km, wander inside for 7 minutes, leave to 1 km: fixes every 30 s.
    static func walk() -> [(Double, Double)] {
        var path: [(Double, Double)] = []
        for d in stride(from: 1000.0, through: 0, by: -100) { path.append(north(of: 48.0, 11.0, meters: d)) }
        for i in 0..<14 { path.append(north(of: 48.0, 11.0 + Double(i % 3) * 0.0005, meters: Double(i % 5) * 20)) }
        for d in stride(from: 0.0, through: 1000, by: 100) { path.append(north(of: 48.0, 11.0, meters: -d)) }
        return path
    }

    @Test("a walk into, around and out of a zone gives exactly one enter, one dwell, one exit")
    func walkInAndOut() async throws {
        let h = try await GeofenceHarness()
        try await h.zone("tech-store", Self.store)
        try await h.start()
        for (i, (lat, lon)) in Self.walk().enumerated() { try await h.fix("walker", lat: lat, lon: lon, at: i * 30) }
        let events = await h.settledEvents(3)
        #expect(events.map(\.type) == [.enter, .dwell, .exit])
        #expect(events.allSatisfy { $0.zoneId == "tech-store" && $0.zoneName == "Tech Store" && $0.source == .server && $0.merchant == "Tech Store" })
        let enter = try #require(events.first)
        #expect(enter.distance <= 175 && enter.dwellSeconds == 0)
        #expect(events[1].dwellSeconds >= 300)
        #expect(events[2].distance > 225)
        #expect(Set(events.map(\.id)).count == 3)
        await h.shutdown()
    }

    @Test("GPS jitter across the border gives no events")
    func borderJitter() async throws {
        let h = try await GeofenceHarness()
        try await h.zone("tech-store", Self.store)
        let service = try await h.start()
        for i in 0..<30 {
            let (lat, lon) = north(of: 48.0, 11.0, meters: i % 2 == 0 ? 185 : 215)
            try await h.fix("jitter", lat: lat, lon: lon, at: i * 20)
        }
        try await h.fix("jitter", lat: 48.5, lon: 11.0, at: 1000)
        #expect(await eventually { service.counters["fixes"] == 31 }, "every fix evaluated")
        #expect(await h.geofenceEvents.settle(.milliseconds(800)).isEmpty)
        await h.shutdown()
    }

    @Test("a zone deleted mid-visit gives an exit; fixes that are inaccurate or out of order are ignored and counted")
    func zoneDeletedAndIgnoredFixes() async throws {
        let h = try await GeofenceHarness()
        try await h.zone("tech-store", Self.store)
        let service = try await h.start()
        try await h.fix("visitor", lat: 48.0, lon: 11.0, at: 0)
        try await h.fix("visitor", lat: 48.0, lon: 11.0, at: -60)
        try await h.fix("visitor", lat: 48.5, lon: 11.0, at: 60, acc: 500)
        await h.geofenceEvents.wait(for: 1)
        try await h.deleteZone("tech-store")
        let events = await h.settledEvents(2)
        #expect(events.map(\.type) == [.enter, .exit])
        #expect(events.last?.zoneId == "tech-store")
        #expect(service.counters["ignoredOutOfOrder"] == 1 && service.counters["ignoredInaccurate"] == 1)
        await h.shutdown()
    }

    @Test("state survives a restart mid-visit: no second enter, then dwell and exit")
    func restartMidVisit() async throws {
        let h = try await GeofenceHarness()
        try await h.zone("tech-store", Self.store)
        try await h.start()
        let path = Self.walk()
        for (i, (lat, lon)) in path.enumerated().prefix(14) { try await h.fix("restarter", lat: lat, lon: lon, at: i * 30) }
        await h.geofenceEvents.wait(for: 1)
        let data = await h.stopAll(crash: true)
        for (i, (lat, lon)) in path.enumerated().dropFirst(14) { try await h.fix("restarter", lat: lat, lon: lon, at: i * 30) }
        try await h.start(data: data[0])
        // An event the broker took just before the crash may be published again with the same id
        // (consumers drop it); a lost visit would show as a second enter with another id.
        _ = await eventually(.seconds(120)) { Set(h.events.map(\.id)).count >= 3 }
        var seen = Set<String>()
        let events = await h.settledEvents(3).filter { seen.insert($0.id).inserted }
        #expect(events.map(\.type) == [.enter, .dwell, .exit])
        await h.shutdown()
    }

    @Test("two shards together emit exactly what one instance does")
    func shards() async throws {
        let devices = (0..<12).map { "device-\($0)" }
        func run(shards: [String]) async throws -> Set<String> {
            let h = try await GeofenceHarness()
            try await h.zone("tech-store", Self.store)
            for (i, shard) in shards.enumerated() { try await h.start(shard: shard, instance: "s\(i)") }
            for (i, (lat, lon)) in Self.walk().enumerated() {
                for device in devices { try await h.fix(device, lat: lat, lon: lon, at: i * 30) }
            }
            let events = await h.settledEvents(devices.count * 3)
            await h.shutdown()
            return Set(events.map { "\($0.id) \($0.deviceId) \($0.type) \($0.ts)" })
        }
        let single = try await run(shards: ["0/1"])
        let split = try await run(shards: ["0/2", "1/2"])
        #expect(single.count == devices.count * 3)
        #expect(split == single)
    }

    @Test("an OwnTracks phone gets its 20 nearest zones as setWaypoints; its own transitions pass through")
    func ownTracks() async throws {
        let h = try await GeofenceHarness()
        for i in 0..<30 {
            try await h.zone("z\(i)", DangerZone(name: "Shop \(i)", lat: 48.0 + Double(i) * 0.001, lon: 11.0, radius: 100))
        }
        try await h.start()
        let origin = OwnTracksOrigin(user: "alice", device: "iphone")
        try await h.fix("alice-iphone", lat: 47.99, lon: 11.0, at: 0, ownTracks: origin)
        let command = try #require(await h.waypoints.wait(for: 1).first)
        #expect(command.topic == "owntracks/alice/iphone/cmd")
        let json = try #require(try JSONSerialization.jsonObject(with: command.payload) as? [String: Any])
        #expect(json["_type"] as? String == "cmd" && json["action"] as? String == "setWaypoints")
        let list = try #require((json["waypoints"] as? [String: Any])?["waypoints"] as? [[String: Any]])
        #expect(list.map { $0["rid"] as? String } == (0..<20).map { "z\($0)" })
        #expect(list.first?["rad"] as? Int == 100 && list.first?["desc"] as? String == "Shop 0")
        // A small move does not resend; the phone's own region entry passes through.
        try await h.fix("alice-iphone", lat: 47.9901, lon: 11.0, at: 30, ownTracks: origin)
        try await h.transition("alice-iphone", PhoneTransition(event: .enter, desc: "Shop 3", rid: "z3", lat: 48.003, lon: 11.0, acc: 5), at: 40)
        try await h.transition("alice-iphone", PhoneTransition(event: .enter, desc: "Home", rid: "home-x", lat: 40, lon: 11.0), at: 50)
        let events = await h.settledEvents(1)
        #expect(events.map(\.type) == [.enter] && events.first?.source == .device && events.first?.zoneId == "z3")
        #expect(h.waypoints.count == 1)
        await h.shutdown()
    }

    @Test("garbage zones and events are reported and valid traffic keeps flowing")
    func garbage() async throws {
        let h = try await GeofenceHarness()
        try await h.start()
        try await h.admin.publish("guardian/zones/bad", payload: Data(#"{"name": "x", "lat": 91, "lon": 0}"#.utf8), retain: true)
        try await h.admin.publish("guardian/zones/also-bad", payload: Data("nope".utf8))
        try await h.admin.publish("guardian/events/d1/location", payload: Data(#"{"lat": 1}"#.utf8))
        try await h.admin.publish("guardian/events/d1/location", payload: Data(#"{"id":"x","deviceId":"other","ts":1795000000,"receivedAt":1795000000,"lat":1,"lon":1}"#.utf8))
        try await h.zone("tech-store", Self.store)
        try await h.fix("d1", lat: 48.0, lon: 11.0, at: 0)
        #expect(await h.settledEvents(1).map(\.type) == [.enter])
        let reasons = await h.errors.wait(for: 4).compactMap { (try? JSONSerialization.jsonObject(with: $0.payload) as? [String: Any])?["reason"] as? String }
        #expect(reasons.count == 4)
        #expect(reasons.contains { $0.contains("lat: must be in [-90, 90]") })
        #expect(reasons.contains { $0.contains("does not match the topic") })
        await h.shutdown()
    }
}
