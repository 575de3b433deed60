import Foundation
@testable import GuardianIngest
import GuardianShared
import GuardianTestSupport
import MQTT
import Synchronization
import Testing

@Suite("ingest over a real mosquitto")
struct IngestIntegrationTests {
    @Test("a location becomes a normalised event with id, deviceId, UTC ts and receivedAt")
    func location() async throws {
        let h = try await IngestHarness()
        let phone = try await h.device("phone-1")
        try await phone.send("guardian/devices/phone-1/location", #"{"ts": "2026-11-22T07:10:22+01:00", "lat": 48.85, "lon": 2.35, "acc": 8}"#)
        await h.events.wait(for: 1)
        let event = try #require(h.eventObjects("phone-1", .location).first)
        #expect(event["deviceId"] as? String == "phone-1")
        #expect(event["ts"] as? String == "2026-11-22T06:10:22.000Z")
        #expect(event["lat"] as? Double == 48.85 && event["lon"] as? Double == 2.35 && event["acc"] as? Double == 8)
        #expect((event["id"] as? String)?.count == 32)
        #expect((event["receivedAt"] as? String).flatMap { Timestamp(rfc3339: $0) } != nil)
        await phone.shutdown()
        await h.shutdown()
    }

    @Test("every device kind: motion, health, state, budget, usage, profile (retained), snapshot split")
    func everyKind() async throws {
        let h = try await IngestHarness()
        let phone = try await h.device("kid-tab")
        let ts = "2026-11-22T10:00:00Z"
        try await phone.send("guardian/devices/kid-tab/motion", #"{"ts": "\#(ts)", "activity": "walking", "confidence": "high"}"#)
        try await phone.send("guardian/devices/kid-tab/health", #"{"ts": "\#(ts)", "heartRate": 80, "steps": 1200}"#)
        try await phone.send("guardian/devices/kid-tab/state", #"{"ts": "\#(ts)", "batteryLevel": 0.42, "network": "wifi"}"#)
        try await phone.send("guardian/devices/kid-tab/budget", #"{"ts": "\#(ts)", "spent": 30, "limit": 120}"#)
        try await phone.send("guardian/devices/kid-tab/usage", #"{"ts": "\#(ts)", "app": "Roblox", "category": "games", "seconds": 900}"#)
        try await phone.send("guardian/devices/kid-tab/profile", #"{"timezone": "Europe/London", "role": "child", "name": "Sam"}"#, retain: true)
        try await phone.send(
            "guardian/devices/kid-tab/snapshot",
            #"{"id": "snap-1", "ts": "\#(ts)", "location": {"lat": 51.5, "lon": -0.12}, "activity": "stationary", "health": {"steps": 5}, "state": {"lowPowerMode": true}}"#)
        await h.events.wait(for: 10)
        #expect(h.eventObjects("kid-tab", .motion).count == 2)
        #expect(h.eventObjects("kid-tab", .health).count == 2)
        #expect(h.eventObjects("kid-tab", .state).count == 2)
        #expect(h.eventObjects("kid-tab", .budget).first?["utilization"] as? Double == 0.25)
        #expect(h.eventObjects("kid-tab", .usage).first?["app"] as? String == "Roblox")
        let profile = try #require(h.eventObjects("kid-tab", .profile).first)
        #expect(profile["timezone"] as? String == "Europe/London" && profile["ts"] != nil)
        #expect(h.eventObjects("kid-tab", .location).map { $0["id"] as? String } == ["snap-1:location"])
        #expect(h.eventObjects("kid-tab", .snapshot).isEmpty)
        // The profile is republished retained, so a service starting later still learns the time zone.
        let late = try await h.broker.connectedClient("late")
        let retained = try await MessageCollector(late, "guardian/events/+/profile")
        #expect(await retained.wait(for: 1).first?.retain == true)
        #expect(h.errors.count == 0)
        await late.shutdown()
        await phone.shutdown()
        await h.shutdown()
    }

    @Test("a batch of 10,000 arrives whole and in ts order")
    func largeBatch() async throws {
        let h = try await IngestHarness(environment: ["GUARDIAN_MAX_PAYLOAD_BYTES": "4194304"])
        let phone = try await h.device("batcher")
        let base = 1_795_000_000
        var order = Array(0..<10_000)
        var generator = SeededGenerator(seed: 7)
        order.shuffle(using: &generator)
        let items = order.map { i in #"{"id": "e\#(i)", "ts": \#(base + i), "lat": \#(Double(i % 90)), "lon": 1}"# }
        try await phone.send("guardian/devices/batcher/location", "[" + items.joined(separator: ",") + "]")
        let received = await h.events.wait(for: 10_000, timeout: .seconds(60))
        let ids = received.compactMap { (try? JSONSerialization.jsonObject(with: $0.payload) as? [String: Any])?["id"] as? String }
        #expect(ids.count == 10_000)
        #expect(ids == (0..<10_000).map { "e\($0)" })
        #expect(await h.events.settle().count == 10_000)
        await phone.shutdown()
        await h.shutdown()
    }

    @Test("duplicates are dropped: the same device id, or the same content without an id")
    func duplicates() async throws {
        let h = try await IngestHarness()
        let phone = try await h.device("dup")
        let withId = #"{"id": "a-1", "ts": 1795000000, "lat": 1, "lon": 2}"#
        let withoutId = #"{"ts": 1795000001, "lat": 1, "lon": 2}"#
        for _ in 0..<3 {
            try await phone.send("guardian/devices/dup/location", withId)
            try await phone.send("guardian/devices/dup/location", withoutId)
        }
        try await phone.send("guardian/devices/dup/location", #"{"ts": 1795000001, "lat": 1, "lon": 3}"#)
        _ = await h.events.wait(for: 3)
        let events = await h.events.settle()
        #expect(events.count == 3)
        #expect(h.service?.counters["duplicates"] == 4)
        await phone.shutdown()
        await h.shutdown()
    }

    @Test("ingest crashed and restarted mid-stream loses nothing (persistent session and outbox)")
    func restartMidStream() async throws {
        let h = try await IngestHarness()
        let phone = try await h.device("streamer")
        let total = 3_000
        // The second half waits for the crash, so that it lands mid-stream however slow this machine is.
        let crashed = Flag()
        let sender = Task {
            for i in 0..<total {
                while i == total / 2 && !crashed.isRaised { try await Task.sleep(for: .milliseconds(10)) }
                try await phone.send("guardian/devices/streamer/location", #"{"id": "s\#(i)", "ts": \#(1_795_000_000 + i), "lat": 1, "lon": 1}"#)
            }
        }
        _ = await h.events.wait(for: 500)
        try await h.crashIngest()
        let seenAtCrash = h.events.count
        crashed.raise()
        try await Task.sleep(for: .milliseconds(200))
        try await h.startIngest()
        try await sender.value
        let ids = { Set(h.eventObjects("streamer", .location).compactMap { $0["id"] as? String }) }
        _ = await eventually(.seconds(120)) { ids().count >= total }
        #expect(seenAtCrash < total)
        #expect(ids() == Set((0..<total).map { "s\($0)" }))
        await phone.shutdown()
        await h.shutdown()
    }

    @Test("garbage is reported with a reason and valid traffic after it still flows")
    func garbage() async throws {
        let h = try await IngestHarness()
        let phone = try await h.device("junk")
        let bad: [(String, String, String)] = [
            ("guardian/devices/junk/location", "not json", "not valid JSON"),
            ("guardian/devices/junk/location", #"{"ts": 1795000000, "lat": "x", "lon": 1}"#, "lat: expected a number"),
            ("guardian/devices/junk/location", #"{"ts": 1795000000, "lat": 95, "lon": 1}"#, "lat: must be in [-90, 90], got 95"),
            ("guardian/devices/junk/location", #"{"lat": 1, "lon": 1}"#, "ts: required field is missing"),
            ("guardian/devices/junk/teleport", #"{"ts": 1795000000}"#, "unknown kind"),
            ("guardian/devices/junk/location", "42", "payload must be a JSON object or an array of objects"),
            ("guardian/devices/junk/location", "[]", "empty batch"),
            ("guardian/devices/junk/location", String(repeating: "[", count: 5000), "not valid JSON"),
            ("guardian/devices/junk/location", "{\"ts\": 1795000000, \"lat\": 1, \"lon\": 1, \"pad\": \"" + String(repeating: "x", count: 300_000) + "\"}", "exceeds the 262144-byte limit"),
            ("guardian/devices/ju%nk/location", #"{"ts": 1795000000, "lat": 1, "lon": 1}"#, "device id must match"),
            ("guardian/devices/junk/motion", #"[{"ts": 1795000000, "activity": "walking"}, {"ts": 1795000001, "activity": "flying"}]"#, "1 of 2 items rejected: items[1].activity"),
        ]
        for (topic, payload, _) in bad { try await phone.send(topic, payload) }
        try await phone.send("guardian/devices/junk/location", #"{"ts": 1795000002, "lat": 1, "lon": 1}"#)
        _ = await h.errors.wait(for: bad.count)
        _ = await h.events.wait(for: 2)
        let reasons = h.errorReasons
        #expect(reasons.count == bad.count)
        for (_, _, expected) in bad {
            #expect(reasons.contains { $0.contains(expected) }, "no report containing \(expected) in \(reasons)")
        }
        let report = try #require(h.errors.objects.first)
        #expect(report["service"] as? String == "ingest" && report["topic"] as? String == "guardian/devices/junk/location")
        #expect(report["excerpt"] as? String == "not json")
        #expect(h.eventObjects("junk", .location).count == 1)
        #expect(h.eventObjects("junk", .motion).count == 1)
        await phone.shutdown()
        await h.shutdown()
    }

    @Test("OwnTracks location, transition and lwt become Guardian events for {user}-{device}")
    func ownTracks() async throws {
        let h = try await IngestHarness()
        let phone = try await h.device("owntracks-phone")
        try await phone.send(
            "owntracks/alice/iphone",
            #"{"_type": "location", "lat": 48.1, "lon": 11.5, "tst": 1795000000, "acc": 10, "vel": 36, "cog": 90, "batt": 55, "bs": 2, "conn": "w", "motionactivities": ["walking"], "tid": "al"}"#)
        try await phone.send(
            "owntracks/alice/iphone/event",
            #"{"_type": "transition", "event": "enter", "desc": "Tech Store", "rid": "zone-1", "lat": 48.1, "lon": 11.5, "tst": 1795000010, "wtst": 1790000000, "acc": 5, "t": "c"}"#)
        try await phone.send("owntracks/alice/iphone", #"{"_type": "lwt", "tst": 1795000020}"#)
        try await phone.send("owntracks/alice/iphone", #"{"_type": "waypoint", "desc": "x"}"#)
        try await phone.send("owntracks/alice/iphone/cmd", #"{"_type": "cmd", "action": "setWaypoints"}"#)
        await h.events.wait(for: 5)
        let location = try #require(h.eventObjects("alice-iphone", .location).first)
        #expect(location["speed"] as? Double == 10 && location["course"] as? Double == 90 && location["ts"] as? String == "2026-11-18T11:06:40.000Z")
        #expect(location["ownTracks"] as? [String: String] == ["user": "alice", "device": "iphone"])
        let state = try #require(h.eventObjects("alice-iphone", .state).first)
        #expect(state["batteryLevel"] as? Double == 0.55 && state["batteryState"] as? String == "charging" && state["network"] as? String == "wifi")
        #expect(h.eventObjects("alice-iphone", .motion).first?["activity"] as? String == "walking")
        let transition = try #require(h.eventObjects("alice-iphone", .transition).first)
        #expect(transition["event"] as? String == "enter" && transition["rid"] as? String == "zone-1" && transition["desc"] as? String == "Tech Store")
        #expect(h.eventObjects("alice-iphone", .offline).first?["reason"] as? String == "lwt")
        #expect(await h.events.settle().count == 5)
        #expect(h.errors.count == 0)
        await phone.shutdown()
        await h.shutdown()
    }

    @Test("with the broker's ACL a device cannot publish as another device")
    func aclConfinesDevices() async throws {
        let h = try await IngestHarness(access: .secured)
        let alice = try await h.device("phone-alice")
        await #expect(throws: MQTTError.self) {
            try await alice.send("guardian/devices/tablet-sam/location", #"{"ts": 1795000000, "lat": 1, "lon": 1}"#)
        }
        try await alice.send("guardian/devices/phone-alice/location", #"{"ts": 1795000000, "lat": 1, "lon": 1}"#)
        await h.events.wait(for: 1)
        #expect(await h.events.settle().map(\.topic) == ["guardian/events/phone-alice/location"])
        await alice.shutdown()
        await h.shutdown()
    }

    @Test("presence: online with counters while running, offline after stopping")
    func presence() async throws {
        let h = try await IngestHarness()
        let watcher = try await h.broker.connectedClient("watcher")
        let presence = try await MessageCollector(watcher, "guardian/services/ingest/+")
        let phone = try await h.device("counted")
        try await phone.send("guardian/devices/counted/location", #"{"ts": 1795000000, "lat": 1, "lon": 1}"#)
        try await phone.send("guardian/devices/counted/location", "garbage")
        // Presence refreshes every stats interval: wait for one that has counted both (a loaded machine may take a few).
        _ = await eventually {
            guard let stats = presence.objects.last?["stats"] as? [String: Int] else { return false }
            return stats["accepted"] == 1 && stats["rejected"] == 1
        }
        let online = try #require(presence.objects.last)
        #expect(online["status"] as? String == "online" && online["version"] as? String == GuardianVersion.current)
        let stats = try #require(online["stats"] as? [String: Int])
        #expect(stats["accepted"] == 1 && stats["rejected"] == 1)
        try await h.stopIngest()
        #expect(await eventually { presence.objects.last?["status"] as? String == "offline" })
        await watcher.shutdown()
        await phone.shutdown()
        await h.shutdown()
    }
}

/// A deterministic random source for reproducible test data.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A flag one task raises and others read.
final class Flag: Sendable {
    private let raised = Atomic<Bool>(false)
    var isRaised: Bool { raised.load(ordering: .relaxed) }
    func raise() { raised.store(true, ordering: .relaxed) }
}
