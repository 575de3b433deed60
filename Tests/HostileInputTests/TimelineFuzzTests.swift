import Foundation
import GuardianShared
import GuardianTestSupport
import GuardianTimeline
import MQTT
import Testing

/// Location, motion and profile events, generate requests and feedback that break the contract.
/// Feedback goes only to devices that have no slots, so even a well-formed one is refused ("no slot").
enum TimelineHostility {
    static let generate = HostileSchema([
        HostileField("from", .timestamp, required: false) { _ in .string("2026-11-18T00:00:00Z") },
        HostileField("to", .timestamp, required: false) { _ in .number(1_795_100_000) },
    ])

    static let feedback = HostileSchema([
        HostileField("start", .timestamp) { rng in .string(Timestamp(milliseconds: 1_795_000_000_000 + Int64(rng.int(0...86_400_000))).rfc3339) },
        HostileField("category", .choice(["sleep", "work", "food", "commute", "family", "leisure", "shopping", "exercise", "unknown"]), required: false) {
            rng in .string(rng.pick(["work", "food", "leisure"]))
        },
        HostileField("vote", .choice(["correct"]), required: false, inTemplate: false) { _ in .string("correct") },
    ])

    static let topics = HostileTopicSet(topics: [
        HostileTopic(
            label: "location", weight: 30, topic: { "guardian/events/\($0)/location" }, ids: EventFields.deviceIds + ["fuzz-ok"],
            schema: EventFields.envelope(EventFields.location), idField: "deviceId"),
        HostileTopic(
            label: "motion", weight: 30, topic: { "guardian/events/\($0)/motion" }, ids: EventFields.deviceIds + ["fuzz-ok"],
            schema: EventFields.envelope(EventFields.motion), idField: "deviceId"),
        HostileTopic(
            label: "profile", weight: 10, topic: { "guardian/events/\($0)/profile" }, ids: EventFields.deviceIds + ["fuzz-ok"],
            schema: EventFields.envelope(EventFields.profile), idField: "deviceId", emptyIsValid: true),
        HostileTopic(
            label: "generate", weight: 15, topic: { "guardian/timeline/\($0)/generate" }, ids: EventFields.deviceIds + ["fuzz-ok"], schema: generate,
            emptyIsValid: true),
        HostileTopic(label: "feedback", weight: 15, topic: { "guardian/timeline/\($0)/feedback" }, ids: EventFields.deviceIds, schema: feedback),
    ])
}

extension HostileInputTests {
    @Test("timeline: 100,000 hostile events and requests are each reported once; the day built from valid events in between is exact")
    func timeline() async throws {
        let run = try await FuzzRun(service: "timeline", outputs: ["guardian/timeline/+/days/+"])
        let service = try TimelineService(config: try run.config(), logger: .quiet)
        try await run.start { try await service.run() }

        let base = Timestamp(rfc3339: "2026-11-18T05:00:00Z")!
        let activities = ["stationary", "walking", "automotive", "walking", "stationary", "cycling", "stationary", "running"]
        let places = [(48.8566, 2.3522), (48.8738, 2.2950), (48.8606, 2.3376)]
        var motion: [MotionEvent] = []
        var locations: [LocationEvent] = []
        var generates = 0

        await run.flood(seed: 0x71_3E11, oversizedTopic: "guardian/events/fz-1/motion") { rng in
            TimelineHostility.topics.bad(&rng)
        } valid: { n, _ in
            // Four minutes apart, all on 2026-11-18 (UTC); now and then a generation.
            let ts = base.adding(seconds: Double(n * 240))
            if n % 10 == 9 {
                generates += 1
                await run.sendValid("guardian/timeline/fuzz-ok/generate", Data("{}".utf8))
            } else if n % 2 == 0 {
                let activity = activities[(n / 2) % activities.count]
                motion.append(MotionEvent(timestamp: ts.milliseconds, activity: MotionActivity(rawValue: activity)!))
                let event = eventJSON(id: "m-\(n)", deviceId: "fuzz-ok", ts: ts, [("activity", .string(activity)), ("confidence", .string("high"))])
                await run.sendValid("guardian/events/fuzz-ok/motion", event.data)
            } else {
                let place = places[(n / 7) % places.count]
                locations.append(LocationEvent(timestamp: ts.milliseconds, location: GeoPoint(lat: place.0, lon: place.1)))
                let event = eventJSON(id: "l-\(n)", deviceId: "fuzz-ok", ts: ts, [("lat", .number(place.0)), ("lon", .number(place.1)), ("acc", .number(20))])
                await run.sendValid("guardian/events/fuzz-ok/location", event.data)
            }
        }

        await run.checkReports()
        #expect(service.counters["events"] == motion.count + locations.count, "timeline stored \(service.counters["events"]) events, \(motion.count + locations.count) were valid")

        // A full rebuild from what the service stored equals the day built offline (labelled, as
        // published) from the valid events alone.
        let before = run.outputMessages.count
        await run.sendValid("guardian/timeline/fuzz-ok/generate", Data(#"{"from": "2026-11-17T00:00:00Z"}"#.utf8))
        await run.waitForOutputs { $0.count > before }
        let offline = try OfflineTimeline.days(.init(deviceId: "fuzz-ok", motion: motion, locations: locations), timeZone: TimeZone(identifier: "UTC")!)
        let expected = try #require(offline.first { $0.date == "2026-11-18" })
        let published = try #require(
            run.outputs(on: "guardian/timeline/fuzz-ok/days/2026-11-18").last.flatMap { try? JSONDecoder().decode(PublishedDay.self, from: $0.payload) })
        #expect(published.deviceId == "fuzz-ok" && !published.slots.isEmpty)
        #expect(published.slots.map(\.start.milliseconds) == expected.slots.map(\.start))
        #expect(published.slots.map(\.end.milliseconds) == expected.slots.map(\.end))
        #expect(published.slots.map(\.activity) == expected.slots.map(\.activity))
        #expect(run.outputs(on: "guardian/timeline/fuzz-ok/days/2026-11-18").count >= generates, "every generation published the day")
        #expect(run.outputMessages.allSatisfy { $0.topic.hasPrefix("guardian/timeline/fuzz-ok/") }, "days published for devices that only sent bad input")

        await run.checkAlive()
        print(run.summary)
        await run.shutdown()
    }
}
