import Foundation
import GuardianIngest
import GuardianShared
import GuardianTestSupport
import MQTT
import Testing

/// Device uploads and OwnTracks messages that break the contract, one kind of upload each.
enum IngestHostility {
    static let time = HostileField("ts", .timestamp) { rng in .string(Timestamp(milliseconds: 1_795_000_000_000 + Int64(rng.int(0...86_400_000))).rfc3339) }
    static let eventId = HostileField("id", .eventId, required: false) { rng in .string("dev-\(rng.int(0...999_999))") }

    static func upload(_ body: [HostileField], timeRequired: Bool = true) -> HostileSchema {
        var ts = time
        ts.required = timeRequired
        return HostileSchema([eventId, ts] + body)
    }

    static let health: [HostileField] = [
        HostileField("heartRate", .number(min: 0, max: 400), required: false) { _ in .number(72) },
        HostileField("hrv", .number(min: 0, max: 10_000), required: false) { _ in .number(40) },
        HostileField("steps", .count, required: false) { rng in .number(Double(rng.int(0...20_000))) },
        HostileField("distance", .number(min: 0, max: 1e9), required: false) { _ in .number(1200) },
        HostileField("activeEnergy", .number(min: 0, max: 1e7), required: false) { _ in .number(300) },
        HostileField("restingEnergy", .number(min: 0, max: 1e7), required: false) { _ in .number(1500) },
        HostileField("standHours", .count, required: false) { _ in .number(8) },
        HostileField("exerciseMinutes", .count, required: false) { _ in .number(30) },
        HostileField("flightsClimbed", .count, required: false) { _ in .number(3) },
        HostileField("vo2Max", .number(min: 0, max: 150), required: false) { _ in .number(45) },
    ]

    static let state: [HostileField] = [
        HostileField("batteryLevel", .number(min: 0, max: 1), required: false) { _ in .number(0.5) },
        HostileField("batteryState", .choice(["unknown", "unplugged", "charging", "full"]), required: false) { _ in .string("charging") },
        HostileField("lowPowerMode", .bool, required: false) { _ in .bool(false) },
        HostileField("thermalState", .choice(["nominal", "fair", "serious", "critical"]), required: false) { _ in .string("fair") },
        HostileField("network", .choice(["wifi", "cellular", "none"]), required: false) { _ in .string("wifi") },
        HostileField("diskFree", .number(min: 0, max: 1e18), required: false) { _ in .number(1e9) },
        HostileField("memoryUsage", .number(min: 0, max: 1), required: false) { _ in .number(0.4) },
    ]

    static let kinds: [(kind: String, schema: HostileSchema)] = [
        ("location", upload(EventFields.location)),
        ("motion", upload(EventFields.motion)),
        ("health", upload(health)),
        ("state", upload(state)),
        (
            "snapshot",
            upload([
                HostileField("location", .object(EventFields.location), required: false) { rng in HostileSchema(EventFields.location).valid(&rng) },
                HostileField("activity", .choice(["stationary", "walking", "running", "cycling", "automotive", "unknown"]), required: false) { _ in
                    .string("walking")
                },
                HostileField("health", .object(health), required: false) { rng in HostileSchema(health).valid(&rng) },
                HostileField("state", .object(state), required: false) { rng in HostileSchema(state).valid(&rng) },
            ])
        ),
        (
            "budget",
            upload([
                HostileField("utilization", .number(min: 0, max: 1)) { rng in .number(rng.double(0...1)) },
                // Never in valid instances: with both, a missing utilization would be computed.
                HostileField("spent", .number(min: 0, max: 1e15), required: false, inTemplate: false) { _ in .number(120) },
                HostileField("limit", .number(min: 0, max: 1e15), required: false, inTemplate: false) { _ in .number(500) },
            ])
        ),
        (
            "usage",
            upload([
                HostileField("app", .text(max: 128)) { rng in .string(rng.pick(["youtube", "Minecraft", "Duolingo"])) },
                HostileField("category", .choice(["games", "social", "video", "education", "other"]), required: false) { _ in .string("games") },
                HostileField("seconds", .number(min: 0, max: 86_400 * 366)) { rng in .number(Double(rng.int(0...3600))) },
            ])
        ),
        ("profile", upload(EventFields.profile, timeRequired: false)),
    ]

    static let ownTracksLocation = HostileSchema([
        HostileField.constant("_type", .string, .string("location")),
        HostileField("tst", .timestamp) { rng in .number(Double(1_795_000_000 + rng.int(0...86_400))) },
        HostileField("lat", .number(min: -90, max: 90)) { rng in .number(rng.double(-89...89)) },
        HostileField("lon", .number(min: -180, max: 180)) { rng in .number(rng.double(-179...179)) },
        HostileField("acc", .number(min: 0, max: 1e7), required: false) { _ in .number(12) },
        HostileField("alt", .number(min: -1e5, max: 1e6), required: false) { _ in .number(35) },
        HostileField("vel", .number(min: 0, max: 1e5), required: false) { _ in .number(4) },
        HostileField("cog", .number(min: 0, max: 360), required: false) { _ in .number(90) },
        HostileField("batt", .number(min: 0, max: 100), required: false) { _ in .number(80) },
        HostileField("bs", .number(min: 0, max: 3), required: false) { _ in .number(1) },
        HostileField("conn", .text(max: 8), required: false) { _ in .string("w") },
    ])

    static let ownTracksTransition = HostileSchema([
        HostileField.constant("_type", .string, .string("transition")),
        HostileField("tst", .timestamp) { rng in .number(Double(1_795_000_000 + rng.int(0...86_400))) },
        HostileField("event", .choice(["enter", "leave"])) { rng in .string(rng.pick(["enter", "leave"])) },
        HostileField("desc", .text(max: 256), required: false) { _ in .string("Tech Store") },
        HostileField("rid", .text(max: 128), required: false) { _ in .string("tech") },
        HostileField("lat", .number(min: -90, max: 90)) { rng in .number(rng.double(-89...89)) },
        HostileField("lon", .number(min: -180, max: 180)) { rng in .number(rng.double(-179...179)) },
        HostileField("acc", .number(min: 0, max: 1e7), required: false) { _ in .number(12) },
        HostileField("wtst", .timestamp, required: false) { _ in .number(1_790_000_000) },
        HostileField("t", .text(max: 8), required: false) { _ in .string("c") },
    ])

    /// A batch whose every item breaks the rules (or that breaks the batch rules itself).
    static func badBatch(_ schema: HostileSchema, _ rng: inout SeededRandom) -> (Data, HostileMutation)? {
        switch rng.int(0...199) {
        case 0..<20: return (Data("[]".utf8), .extra)
        case 20: return (Data(("[" + Array(repeating: "{}", count: 10_001).joined(separator: ",") + "]").utf8), .extra)
        case 21..<40: return (HJSON.array([.number(42), .string("x"), .null, .array([])]).data, .wrongType)
        default:
            var items: [HJSON] = []
            var how = HostileMutation.extra
            for _ in 0..<rng.int(1...4) {
                guard let (item, mutation) = HostileMutator.mutateField(schema.valid(&rng), schema: schema, &rng) else { return nil }
                items.append(item)
                how = mutation
            }
            return (HJSON.array(items).data, how)
        }
    }

    static func badMessage(_ topic: String, _ made: (Data, HostileMutation)?) -> BadMessage? {
        made.map { BadMessage(topic: topic, payload: $0.0, how: $0.1) }
    }

    static let topics = HostileTopicSet(
        topics: kinds.map { kind, schema in
            HostileTopic(
                label: kind, weight: kind == "location" ? 20 : 10, topic: { "guardian/devices/\($0)/\(kind)" }, ids: EventFields.deviceIds + ["fuzz-ok"],
                // An empty retained profile deletes it (an erase clears it): not an error.
                schema: schema, emptyIsValid: kind == "profile", arrayIsValid: true,
                custom: { rng, id in
                    let topic = "guardian/devices/\(id)/\(kind)"
                    if rng.chance(0.02) {
                        // Valid JSON, but over the 256 KiB limit.
                        var big = schema.valid(&rng)
                        big["pad"] = .string(String(repeating: "p", count: 270_000))
                        return BadMessage(topic: topic, payload: big.data, how: .oversized)
                    }
                    return badMessage(topic, badBatch(schema, &rng))
                })
        } + [
            HostileTopic(
                label: "unknown kind", weight: 4,
                topic: { "guardian/devices/fz-1/\($0)" },
                ids: ["Location", "locations", "transition", "offline", "ｌｏｃａｔｉｏｎ", "", "events", "location ", "LOCATION"],
                schema: upload(EventFields.location), topicHasId: false, arrayIsValid: true),
            HostileTopic(
                label: "owntracks", weight: 10, topic: { "owntracks/\($0)/phone" }, ids: ["alice", "bob", "fz-user"], schema: ownTracksLocation,
                arrayIsValid: true,
                // An empty user level still makes a valid device id ("-phone").
                badTopicIds: HostileValues.badTopicIds.filter { !$0.isEmpty },
                custom: { rng, id in
                    if rng.chance(0.2) {
                        // User and device that form an id of more than 64 characters.
                        let long = String(repeating: "u", count: 33)
                        return BadMessage(topic: "owntracks/\(long)/\(long)", payload: ownTracksLocation.valid(&rng).data, how: .topicId)
                    }
                    return badMessage("owntracks/\(id)/phone", badBatch(ownTracksLocation, &rng))
                }),
            HostileTopic(
                label: "owntracks event", weight: 6, topic: { "owntracks/\($0)/phone/event" }, ids: ["alice", "bob"], schema: ownTracksTransition,
                arrayIsValid: true, badTopicIds: HostileValues.badTopicIds.filter { !$0.isEmpty },
                custom: { rng, id in badMessage("owntracks/\(id)/phone/event", badBatch(ownTracksTransition, &rng)) }),
        ])
}

extension HostileInputTests {
    @Test("ingest: 100,000 hostile uploads are each reported once; valid uploads in between come through intact")
    func ingest() async throws {
        let run = try await FuzzRun(service: "ingest", outputs: ["guardian/events/#"])
        let service = try IngestService(config: try run.config(), logger: .quiet)
        try await run.start { try await service.run() }

        var expectedEvents: [String: (topic: String, lat: Double, lon: Double, ts: String)] = [:]
        var ownTracksFixes: [(ts: String, lat: Double, lon: Double)] = []
        let base = Timestamp(rfc3339: "2026-11-18T06:00:00Z")!

        await run.flood(seed: 0x1_9E57, oversizedTopic: "guardian/devices/fz-1/location") { rng in
            IngestHostility.topics.bad(&rng)
        } valid: { n, rng in
            let ts = base.adding(seconds: Double(n * 60))
            let lat = (rng.double(-80...80) * 1e5).rounded() / 1e5
            let lon = (rng.double(-170...170) * 1e5).rounded() / 1e5
            let id = "ok-\(n)"
            let item = HJSON.object([("id", .string(id)), ("ts", .string(ts.rfc3339)), ("lat", .number(lat)), ("lon", .number(lon)), ("acc", .number(5))])
            switch n % 4 {
            case 0:
                await run.sendValid("guardian/devices/fuzz-ok/location", item.data)
            case 1:
                // A batch with one bad item: the good one is kept, the payload reported once.
                let batch = HJSON.array([item, .object([("ts", .string("yesterday")), ("lat", .number(1)), ("lon", .number(1))])]).data
                run.expectReport(topic: "guardian/devices/fuzz-ok/location", payload: batch)
                await run.sendValid("guardian/devices/fuzz-ok/location", batch)
            case 2:
                await run.sendValid("guardian/devices/fuzz-ok/location", HJSON.array([item]).data)
            default:
                let fix = HJSON.object([
                    ("_type", .string("location")), ("tst", .number(ts.secondsSinceEpoch)), ("lat", .number(lat)), ("lon", .number(lon)),
                ])
                ownTracksFixes.append((ts.rfc3339, lat, lon))
                await run.sendValid("owntracks/fzuser/fzphone", fix.data)
                return
            }
            expectedEvents[id] = ("guardian/events/fuzz-ok/location", lat, lon, ts.rfc3339)
        }

        await run.checkReports()

        // Every valid upload came through once, unchanged; nothing else did.
        let wanted = expectedEvents.count + ownTracksFixes.count
        await run.waitForOutputs { $0.count >= wanted }
        let events = run.outputMessages
        #expect(events.count == wanted, "\(events.count) events for \(wanted) valid uploads")
        for (id, want) in expectedEvents {
            let matches = events.filter { $0.topic == want.topic && $0.json?["id"] as? String == id }
            #expect(matches.count == 1, "event \(id) arrived \(matches.count) times")
            if let event = matches.first?.json {
                #expect(event["lat"] as? Double == want.lat && event["lon"] as? Double == want.lon && event["ts"] as? String == want.ts)
                #expect(event["deviceId"] as? String == "fuzz-ok" && event["acc"] as? Double == 5)
            }
        }
        let ownTracks = events.filter { $0.topic == "guardian/events/fzuser-fzphone/location" }.compactMap(\.json)
        for fix in ownTracksFixes {
            let matches = ownTracks.filter { $0["ts"] as? String == fix.ts }
            #expect(matches.count == 1 && matches.first?["lat"] as? Double == fix.lat && matches.first?["lon"] as? Double == fix.lon)
        }

        // Still alive: online, and a last upload is republished.
        await run.checkAlive()
        let last = HJSON.object([("id", .string("ok-final")), ("ts", .string(base.rfc3339)), ("lat", .number(1)), ("lon", .number(2))])
        await run.sendValid("guardian/devices/fuzz-ok/location", last.data)
        #expect(await run.waitForOutputs { $0.contains { $0.json?["id"] as? String == "ok-final" } })
        print(run.summary)
        await run.shutdown()
    }
}
