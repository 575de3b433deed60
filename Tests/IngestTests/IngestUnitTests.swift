import Foundation
import Glibc
import GuardianTestSupport
@testable import GuardianIngest
import GuardianShared
import Testing

@Suite("ingest codecs without a broker")
struct IngestUnitTests {
    let normalizer = EventNormalizer()
    let ts = Timestamp(rfc3339: "2026-11-22T06:10:22Z")!
    let received = Timestamp(milliseconds: 1_795_000_000_000)

    @Test("a normalised event is one flat JSON object that decodes back to the contract type")
    func normalisedPayload() throws {
        let event = try normalizer.make(Location(lat: 1, lon: 2, acc: 3), deviceId: "d1", deviceEventId: "e-1", ts: ts, receivedAt: received)
        let decoded = try JSONDecoder().decode(DeviceEvent<Location>.self, from: event.payload)
        #expect(decoded.id == "e-1" && decoded.deviceId == "d1" && decoded.ts == ts && decoded.receivedAt == received)
        #expect(decoded.body == Location(lat: 1, lon: 2, acc: 3))
        let empty = try normalizer.make(HealthMetrics(), deviceId: "d1", deviceEventId: nil, ts: ts, receivedAt: received)
        let object = try #require(try JSONSerialization.jsonObject(with: empty.payload) as? [String: Any])
        #expect(Set(object.keys) == ["id", "deviceId", "ts", "receivedAt"])
    }

    @Test("content ids are deterministic and depend on device, kind, time and content")
    func contentIds() throws {
        func id(_ body: some EventBody, device: String = "d1", at time: Timestamp? = nil) throws -> String {
            try normalizer.make(body, deviceId: device, deviceEventId: nil, ts: time ?? ts, receivedAt: received).id
        }
        let base = try id(Location(lat: 1, lon: 2))
        #expect(base.count == 32)
        #expect(try id(Location(lat: 1, lon: 2)) == base)
        #expect(try id(Location(lat: 1, lon: 2.000001)) != base)
        #expect(try id(Location(lat: 1, lon: 2), device: "d2") != base)
        #expect(try id(Location(lat: 1, lon: 2), at: ts.adding(seconds: 1)) != base)
        #expect(try id(Motion(activity: .walking)) != id(Motion(activity: .running)))
        // The id an earlier release (hand-written SHA-256) gave this event: de-duplication across the upgrade.
        #expect(
            EventNormalizer.contentId(
                deviceId: "phone-alice", kind: .location, ts: Timestamp(milliseconds: 1_764_051_022_000),
                bodyJSON: Data(#"{"lat":48.8566,"lon":2.3522}"#.utf8)) == "f42805e76ca98482ae441a5e93bbae77")
    }

    @Test("OwnTracks fields map to Guardian's: vel km/h to m/s, batt % to [0, 1], bs and conn codes")
    func ownTracksMapping() throws {
        let json = #"{"_type":"location","lat":52.5,"lon":13.4,"tst":1795420116,"acc":20,"alt":34,"vel":18,"cog":360,"batt":100,"bs":3,"conn":"m","motionactivities":["unknown","automotive"]}"#
        guard case .location(let ts, let location, let state, let motion) = try JSONDecoder().decode(OwnTracksEnvelope.self, from: Data(json.utf8)).message
        else { Issue.record("not a location"); return }
        #expect(ts == Timestamp(secondsSinceEpoch: 1_795_420_116))
        #expect(location == Location(lat: 52.5, lon: 13.4, acc: 20, alt: 34, speed: 5, course: 0, ownTracks: nil))
        #expect(state == DeviceState(batteryLevel: 1, batteryState: .full, network: .cellular))
        #expect(motion == Motion(activity: .automotive))
        let bare = try JSONDecoder().decode(OwnTracksEnvelope.self, from: Data(#"{"_type":"location","lat":1,"lon":2,"tst":1795420116}"#.utf8))
        guard case .location(_, _, nil, nil) = bare.message else { Issue.record("expected no state or motion"); return }
        for bad in [
            #"{"_type":"location","lat":1,"lon":2}"#, #"{"_type":"location","lat":91,"lon":2,"tst":1795420116}"#,
            #"{"_type":"location","lat":1,"lon":2,"tst":1795420116,"batt":120}"#, #"{"lat":1,"lon":2,"tst":1795420116}"#,
            #"{"_type":"transition","event":"wander","lat":1,"lon":2,"tst":1795420116}"#,
        ] {
            #expect(throws: (any Error).self, "\(bad)") { try JSONDecoder().decode(OwnTracksEnvelope.self, from: Data(bad.utf8)) }
        }
        guard case .ignored(let type) = try JSONDecoder().decode(OwnTracksEnvelope.self, from: Data(#"{"_type":"card","name":"x"}"#.utf8)).message
        else { Issue.record("card should be ignored"); return }
        #expect(type == "card")
    }

    @Test("events of a batch come out in ts order; equal times keep upload order")
    func ordering() throws {
        let times = [5, 1, 3, 1, 2].map { ts.adding(seconds: Double($0)) }
        let events = try times.enumerated().map { i, t in
            try normalizer.make(Location(lat: Double(i), lon: 0), deviceId: "d", deviceEventId: "e\(i)", ts: t, receivedAt: received)
        }
        #expect(IngestPipeline.ordered(events).map(\.id) == ["e1", "e3", "e4", "e2", "e0"])
    }
}

@Suite("ingest store and outbox")
struct IngestStoreTests {
    @Test("the acknowledged watermark only passes contiguous acknowledgements")
    func outboxWatermark() {
        var outbox = Outbox()
        for id in [1, 2, 3, 5] as [Int64] { outbox.sent(id) }
        outbox.acknowledged(2)
        #expect(outbox.takeProgress() == (nil, 0))
        outbox.acknowledged(1)
        #expect(outbox.takeProgress() == (2, 2))
        outbox.acknowledged(5)
        #expect(outbox.takeProgress() == (2, 0))
        outbox.acknowledged(3)
        #expect(outbox.takeProgress() == (5, 2))
        #expect(outbox.pending == 0)
    }

    @Test("events above the watermark are replayed; duplicates are not stored twice; old events are pruned")
    func replayAndPrune() throws {
        let data = try TemporaryDirectory()
        let config = try GuardianConfig(environment: ["GUARDIAN_DATA_DIR": data.url.path])
        let store = try IngestStore(config: config, logger: .quiet)
        let normalizer = EventNormalizer()
        let t0 = Timestamp(milliseconds: 1_795_000_000_000)
        let events = try (0..<5).map { i in
            try normalizer.make(Location(lat: 1, lon: Double(i)), deviceId: "d", deviceEventId: "e\(i)", ts: t0, receivedAt: t0)
        }
        let inserted = try store.insert(events + [events[0]])
        #expect(inserted.count == 5)
        try store.markAcknowledged(upTo: inserted[2].rowID)
        #expect(try store.unacknowledged().map(\.event.id) == ["e3", "e4"])
        // Hour marks: everything inserted so far belongs to an hour two days ago.
        #expect(try store.prune(receivedBefore: t0.adding(seconds: -3 * 86400), now: t0.adding(seconds: -2 * 86400)) == 0)
        try store.markAcknowledged(upTo: inserted[4].rowID)
        let removed = try store.prune(receivedBefore: t0.adding(seconds: -86400), now: t0)
        #expect(removed == 5)
        #expect(try store.count() == 0)
    }

    @Test("an unwritable data directory fails with a clear storage error")
    func unwritableDirectory() throws {
        let data = try TemporaryDirectory()
        let readOnly = data.url.appendingPathComponent("ro")
        try FileManager.default.createDirectory(at: readOnly, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: readOnly.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: readOnly.path) }
        guard getuid() != 0 else {
            // root ignores directory permissions: use a path under a regular file instead.
            let file = data.url.appendingPathComponent("file")
            try Data().write(to: file)
            let config = try GuardianConfig(environment: ["GUARDIAN_DATA_DIR": file.appendingPathComponent("sub").path])
            #expect(throws: StorageError.self) { try IngestStore(config: config, logger: .quiet) }
            return
        }
        let config = try GuardianConfig(environment: ["GUARDIAN_DATA_DIR": readOnly.path])
        #expect(throws: StorageError.self) { try IngestStore(config: config, logger: .quiet) }
    }
}
