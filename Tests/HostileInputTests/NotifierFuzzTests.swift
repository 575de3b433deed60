import Foundation
import GuardianNotifier
import GuardianShared
import GuardianTestSupport
import MQTT
import Testing

/// Predictions, replies, child status, acks and commands, families, preferences and profiles that
/// break the contract.
enum NotifierHostility {
    static let prediction = HostileSchema([
        HostileField("id", .text(max: 128)) { rng in .string("p-\(rng.int(0...999_999))") },
        HostileField("deviceId", .string) { _ in .string("fz-1") },
        HostileField("zoneId", .id) { rng in .string("zone-\(rng.int(0...99))") },
        HostileField("merchant", .text(max: 128), required: false) { _ in .string("Tech Store") },
        HostileField("probability", .number(min: 0, max: 1)) { rng in .number(rng.double(0...1)) },
        HostileField("threshold", .number(min: 0, max: 1)) { _ in .number(0.7) },
        HostileField("riskLevel", .choice(["low", "medium", "high"])) { rng in .string(rng.pick(["low", "medium", "high"])) },
    ])

    static let reply = HostileSchema([
        HostileField("commandId", .string) { rng in .string("c-\(rng.int(0...999_999))") },
        HostileField("status", .choice(["accepted", "rejected", "clarify"])) { rng in .string(rng.pick(["accepted", "rejected", "clarify"])) },
        HostileField("command", .json, required: false) { _ in .object([("action", .string("shutdown"))]) },
        HostileField("summary", .string) { _ in .string("Sam: block games for 2 hours") },
        HostileField("reason", .string, required: false) { _ in .string("not your child") },
    ])

    static let status = HostileSchema([
        HostileField("ts", .timestamp) { rng in .number(Double(1_795_000_000 + rng.int(0...86_400))) },
        HostileField("message", .text(max: 500)) { _ in .string("Homework done") },
        HostileField("policyVersion", .count, required: false) { _ in .number(3) },
        HostileField("blockedApps", .strings, required: false) { _ in .array([.string("youtube")]) },
    ])

    static let ack = HostileSchema([
        HostileField("commandId", .text(max: 128)) { rng in .string("c-\(rng.int(0...999_999))") },
        HostileField("ok", .bool) { rng in .bool(rng.chance(0.5)) },
        HostileField("error", .text(max: 500), required: false) { _ in .string("blocked by the OS") },
    ])

    /// A child's latest command: the notifier reads only `id` and `command.action` (both needed) from it.
    static let childCommand = HostileSchema([
        HostileField("id", .string) { rng in .string("c-\(rng.int(0...999_999))") },
        HostileField("issuedAt", .json, required: false) { _ in .string("2026-11-18T12:00:00.000Z") },
        HostileField(
            "command",
            .object([
                HostileField("action", .string) { _ in .string("shutdown") },
                HostileField("message", .json, required: false) { _ in .string("Bedtime") },
            ])
        ) { _ in .object([("action", .string("shutdown"))]) },
    ])

    static let preferences = HostileSchema([
        HostileField("nudgeThreshold", .number(min: 0, max: 1), required: false) { _ in .number(0.8) },
        HostileField(
            "quietHours",
            .object([
                HostileField("start", .clock) { _ in .string("22:00") },
                HostileField("end", .clock) { _ in .string("07:00") },
            ]), required: false
        ) { _ in .object([("start", .string("22:00")), ("end", .string("07:00"))]) },
        HostileField("maxNudgesPerHour", .count, required: false) { _ in .number(3) },
        HostileField("mutedZones", .ids, required: false) { _ in .array([.string("zone-1")]) },
        HostileField(
            "webhookUrl", .text(max: 2048), required: false,
            extraBad: [.string("ftp://example.com/hook"), .string("javascript:alert(1)"), .string("//example.com"), .string("HTTP://x")]
        ) { _ in .string("https://example.com/hook") },
        HostileField("timezone", .text(max: 64), required: false) { _ in .string("Europe/Paris") },
    ])

    static let children = EventFields.deviceIds + ["fz-kid"]

    static let topics = HostileTopicSet(topics: [
        HostileTopic(
            label: "prediction", weight: 25, topic: { "guardian/predictions/\($0)" }, ids: EventFields.deviceIds + ["fz-phone"], schema: prediction,
            idField: "deviceId"),
        HostileTopic(label: "reply", weight: 15, topic: { "guardian/parents/\($0)/replies" }, ids: ["fz-parent", "p-1", "p-2"], schema: reply),
        HostileTopic(label: "status", weight: 10, topic: { "guardian/children/\($0)/status" }, ids: children, schema: status, emptyIsValid: true),
        HostileTopic(label: "ack", weight: 10, topic: { "guardian/children/\($0)/ack" }, ids: children, schema: ack),
        HostileTopic(
            label: "child command", weight: 10, topic: { "guardian/children/\($0)/command" }, ids: children, schema: childCommand, emptyIsValid: true),
        HostileTopic(
            label: "family", weight: 10, topic: { "guardian/families/\($0)" }, ids: ["fzfam", "fam-1", "fam-2"], schema: EventFields.family,
            emptyIsValid: true),
        HostileTopic(
            label: "preferences", weight: 10, topic: { "guardian/users/\($0)/preferences" }, ids: ["fz-parent", "fz-phone", "u-1"], schema: preferences,
            emptyIsValid: true),
        HostileTopic(
            label: "profile", weight: 10, topic: { "guardian/events/\($0)/profile" }, ids: children, schema: EventFields.envelope(EventFields.profile), emptyIsValid: true),
    ])
}

extension HostileInputTests {
    @Test("notifier: 100,000 hostile messages are each reported once; notifications for valid ones in between go out once each")
    func notifier() async throws {
        let run = try await FuzzRun(service: "notifier", outputs: ["guardian/notifications/+"])
        let family = HJSON.object([
            ("parents", .array([.string("fz-parent")])), ("children", .array([.object([("deviceId", .string("fz-kid")), ("name", .string("Kiddo"))])])),
        ])
        try await run.publisher.publish("guardian/families/fzfam", payload: family.data, retain: true)
        let service = try NotifierService(config: try run.config(), logger: .quiet)
        try await run.start { try await service.run() }

        let base = Timestamp(rfc3339: "2026-11-18T12:00:00Z")!
        var expected: [(recipient: String, id: String)] = []
        func send(_ n: Int) async {
            let id = "ok-\(n)"
            switch n % 5 {
            case 0:
                expected.append(("fz-parent", "reply-\(id)-accepted"))
                let reply = HJSON.object([("commandId", .string(id)), ("status", .string("accepted")), ("summary", .string("Kiddo: a warning"))])
                await run.sendValid("guardian/parents/fz-parent/replies", reply.data)
            case 1:
                expected.append(("fz-phone", "nudge-\(id)"))
                let prediction = HJSON.object([
                    ("id", .string(id)), ("deviceId", .string("fz-phone")), ("zoneId", .string("zone-\(n)")), ("merchant", .string("Shop \(n)")),
                    ("probability", .number(0.95)), ("threshold", .number(0.7)), ("riskLevel", .string("high")), ("trigger", .string("enter")),
                ])
                await run.sendValid("guardian/predictions/fz-phone", prediction.data)
            case 2:
                expected.append(("fz-parent", "ack-fz-kid-\(id)"))
                await run.sendValid("guardian/children/fz-kid/ack", HJSON.object([("commandId", .string(id)), ("ok", .bool(true))]).data)
            case 3:
                let ts = base.adding(seconds: Double(n))
                expected.append(("fz-parent", "status-fz-kid-\(ts.milliseconds)"))
                let status = HJSON.object([("ts", .string(ts.rfc3339)), ("message", .string("Homework done (\(n))"))])
                await run.sendValid("guardian/children/fz-kid/status", status.data)
            default:
                expected.append(("fz-kid", "command-\(id)"))
                let command = HJSON.object([
                    ("id", .string(id)), ("issuedAt", .string(base.rfc3339)), ("issuedBy", .string("fz-parent")),
                    ("command", .object([("action", .string("warning")), ("message", .string("Dinner is ready"))])),
                ])
                await run.sendValid("guardian/children/fz-kid/command", command.data)
            }
        }

        await run.flood(seed: 0x4_0771F7, oversizedTopic: "guardian/predictions/fz-1") { rng in
            NotifierHostility.topics.bad(&rng)
        } valid: { n, _ in
            await send(n)
        }

        await run.checkReports()

        // Each valid message became its notification, once, for the right person; nothing else went out.
        await run.waitForOutputs { $0.count >= expected.count }
        let received = run.outputMessages.map { (String($0.topic.split(separator: "/").last ?? ""), $0.json?["id"] as? String ?? "?") }
        #expect(received.count == expected.count, "\(received.count) notifications for \(expected.count) valid messages")
        for want in expected {
            let count = received.filter { $0 == want }.count
            #expect(count == 1, "\(want.id) to \(want.recipient) delivered \(count) times")
        }

        // Still alive: online, and one more reply is notified.
        await run.checkAlive()
        await send(1_000_000)
        #expect(await run.waitForOutputs { $0.count == expected.count })
        print(run.summary)
        await run.shutdown()
    }
}
