import Foundation
import GuardianGeofence
import GuardianShared
import GuardianTestSupport
import MQTT
import Testing

/// Zones and location and transition events that break the contract.
enum GeofenceHostility {
    static let zone = HostileSchema([
        HostileField("name", .text(max: 128)) { rng in .string(rng.pick(["Tech Store", "Mall", "Café Crème"])) },
        HostileField("lat", .number(min: -90, max: 90)) { rng in .number(rng.double(-89...89)) },
        HostileField("lon", .number(min: -180, max: 180)) { rng in .number(rng.double(-179...179)) },
        HostileField("radius", .number(min: 1, max: 100_000), required: false) { rng in .number(rng.double(10...500)) },
        HostileField("merchant", .text(max: 128), required: false) { _ in .string("Tech Store") },
        HostileField("category", .text(max: 64), required: false) { _ in .string("electronics") },
        HostileField("regretRate", .number(min: 0, max: 1), required: false) { rng in .number(rng.double(0...1)) },
        HostileField("regretCount", .count, required: false) { rng in .number(Double(rng.int(0...50))) },
    ])

    static let transition: [HostileField] = [
        HostileField("event", .choice(["enter", "leave"])) { rng in .string(rng.pick(["enter", "leave"])) },
        HostileField("desc", .string, required: false) { _ in .string("Tech Store") },
        HostileField("rid", .string, required: false) { _ in .string("fz") },
        HostileField("lat", .anyNumber) { rng in .number(rng.double(-89...89)) },
        HostileField("lon", .anyNumber) { rng in .number(rng.double(-179...179)) },
        HostileField("acc", .anyNumber, required: false) { _ in .number(15) },
        HostileField("wtst", .timestamp, required: false) { _ in .number(1_790_000_000) },
        HostileField("trigger", .string, required: false) { _ in .string("c") },
    ]

    static let topics = HostileTopicSet(topics: [
        HostileTopic(
            label: "zone", weight: 30, topic: { "guardian/zones/\($0)" }, ids: ["fz"] + (1...20).map { "z-\($0)" }, schema: zone, emptyIsValid: true),
        HostileTopic(
            label: "location", weight: 50, topic: { "guardian/events/\($0)/location" }, ids: EventFields.deviceIds + ["fuzz-ok"],
            schema: EventFields.envelope(EventFields.location), idField: "deviceId"),
        HostileTopic(
            label: "transition", weight: 20, topic: { "guardian/events/\($0)/transition" }, ids: EventFields.deviceIds + ["fuzz-ph"],
            schema: EventFields.envelope(transition), idField: "deviceId"),
    ])
}

extension HostileInputTests {
    @Test("geofence: 100,000 hostile zones and events are each reported once; fixes in between still enter and exit")
    func geofence() async throws {
        let run = try await FuzzRun(service: "geofence", outputs: ["guardian/geofence/#"])
        let center = (lat: 48.8566, lon: 2.3522)
        try await run.publisher.publish(
            "guardian/zones/fz", payload: HJSON.object([("name", .string("Fuzz Zone")), ("lat", .number(center.lat)), ("lon", .number(center.lon)), ("radius", .number(200))]).data,
            retain: true)
        let service = try GeofenceService(config: try run.config(), logger: .quiet)
        try await run.start { try await service.run() }

        let base = Timestamp(rfc3339: "2026-11-18T06:00:00Z")!
        var fixes = 0
        var expectedFixEvents: [(type: String, ts: String)] = []
        var phoneInside = false
        var expectedPhoneEvents: [(type: String, ts: String)] = []
        // Outside first (nothing), then inside (enter), outside (exit), …, a minute apart (no dwell).
        func sendFix() async {
            let ts = base.adding(seconds: Double(fixes * 60))
            let inside = fixes % 2 == 1
            let fix = eventJSON(
                id: "fix-\(fixes)", deviceId: "fuzz-ok", ts: ts,
                [("lat", .number(inside ? center.lat : center.lat + 0.009)), ("lon", .number(center.lon)), ("acc", .number(10))])
            if fixes > 0 { expectedFixEvents.append((inside ? "enter" : "exit", ts.rfc3339)) }
            fixes += 1
            await run.sendValid("guardian/events/fuzz-ok/location", fix.data)
        }

        await run.flood(seed: 0x6E0F, oversizedTopic: "guardian/events/fz-1/location") { rng in
            GeofenceHostility.topics.bad(&rng)
        } valid: { n, _ in
            if n % 5 == 4 {
                // The phone's own region monitoring, forwarded with source "device".
                phoneInside.toggle()
                let ts = base.adding(seconds: Double(n * 60 + 30))
                let transition = eventJSON(
                    id: "tr-\(n)", deviceId: "fuzz-ph", ts: ts,
                    [("event", .string(phoneInside ? "enter" : "leave")), ("rid", .string("fz")), ("lat", .number(center.lat)), ("lon", .number(center.lon))])
                expectedPhoneEvents.append((phoneInside ? "enter" : "exit", ts.rfc3339))
                await run.sendValid("guardian/events/fuzz-ph/transition", transition.data)
            } else {
                await sendFix()
            }
        }

        await run.checkReports()

        // The fixes and transitions sent in between produced exactly their events, in order.
        let wanted = expectedFixEvents.count + expectedPhoneEvents.count
        await run.waitForOutputs { $0.count >= wanted }
        #expect(run.outputMessages.count == wanted, "\(run.outputMessages.count) geofence events for \(wanted) expected")
        for (device, expected, source) in [("fuzz-ok", expectedFixEvents, "server"), ("fuzz-ph", expectedPhoneEvents, "device")] {
            let events = run.outputs(on: "guardian/geofence/\(device)").compactMap(\.json)
            #expect(events.map { $0["type"] as? String ?? "?" } == expected.map(\.type), "\(device) event types")
            #expect(events.map { $0["ts"] as? String ?? "?" } == expected.map(\.ts), "\(device) event times")
            #expect(events.allSatisfy { $0["zoneId"] as? String == "fz" && $0["zoneName"] as? String == "Fuzz Zone" && $0["source"] as? String == source })
        }

        // Still alive: online, and one more fix still crosses the border.
        await run.checkAlive()
        await sendFix()
        #expect(await run.waitForOutputs { $0.count == wanted + 1 })
        print(run.summary)
        await run.shutdown()
    }
}
