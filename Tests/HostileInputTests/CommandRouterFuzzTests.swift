import Foundation
import GuardianCommandRouter
import GuardianShared
import GuardianTestSupport
import MQTT
import Testing

/// Parents' commands (words and structured), activity requests, usage events, families and profiles
/// that break the contract.
enum CommandRouterHostility {
    static let parents = ["fz-parent"] + (1...9).map { "p-\($0)" }

    static let textCommand = HostileSchema([
        HostileField("id", .eventId) { rng in .string("bad-\(rng.int(0...999_999))") },
        // Optional in the contract, but the command has no `command` either: without text it is refused.
        HostileField("text", .text(max: 1000)) { rng in .string(rng.pick(["Block all games for 2 hours", "Give him 10 more minutes", "hello"])) },
        HostileField("child", .text(max: 64), required: false) { _ in .string("Kiddo") },
    ])

    static let command: [HostileField] = [
        HostileField("action", .choice(["shutdown", "warning", "allow", "extend", "block_app", "schedule"])) { _ in .string("block_app") },
        HostileField("durationSeconds", .number(min: 1, max: 604_800), required: false) { _ in .number(3600) },
        HostileField(
            "apps", .strings,
            extraBad: [
                .array([]), .array((0...20).map { .string("app\($0)") }), .array([.string("!!!")]), .array([.string("")]),
                .array([.string(String(repeating: "a", count: 41))]),
            ]
        ) { _ in .array([.string("youtube")]) },
        // Never in valid instances: with categories, block_app needs no apps.
        HostileField("categories", .strings, required: false, inTemplate: false, extraBad: [.array([.string("gamez")]), .array([])]) { _ in .array([.string("games")]) },
        HostileField(
            "message", .string, required: false,
            extraBad: [.string(""), .string("   "), .string(String(repeating: "m", count: 201)), .string("a\u{1}b")]
        ) { _ in .string("Homework first") },
        HostileField("until", .string, required: false, inTemplate: false, extraBad: [.string("tomorrow"), .string("2026-13-01T00:00:00Z")]) { _ in
            .string("2026-11-18T20:00:00Z")
        },
        HostileField(
            "schedule", .json, required: false, inTemplate: false,
            extraBad: [.object([("start", .string("21:00")), ("end", .string("07:00")), ("type", .string("bedtime"))])]
        ) { _ in .null },
    ]

    static let structuredCommand = HostileSchema([
        HostileField("id", .eventId) { rng in .string("bad-\(rng.int(0...999_999))") },
        HostileField("command", .object(command)) { rng in HostileSchema(command).valid(&rng) },
        HostileField("child", .text(max: 64), required: false) { _ in .string("fz-kid") },
    ])

    static let activity = HostileSchema([
        HostileField("child", .string, required: false) { _ in .string("Kiddo") },
        HostileField("since", .timestamp, required: false) { _ in .string("2026-11-18T00:00:00Z") },
    ])

    static let usage = EventFields.envelope([
        HostileField("app", .text(max: 128)) { rng in .string(rng.pick(["youtube", "fuzzapp", "Minecraft"])) },
        HostileField("category", .choice(["games", "social", "video", "education", "other"]), required: false) { _ in .string("games") },
        HostileField("seconds", .number(min: 0, max: 86_400 * 366)) { rng in .number(Double(rng.int(0...3600))) },
    ])

    static let activityReplies = MQTTProperties(responseTopic: "guardian/parents/fz-parent/activity-replies/bad")

    static let topics = HostileTopicSet(topics: [
        HostileTopic(label: "text command", weight: 30, topic: { "guardian/parents/\($0)/commands" }, ids: parents, schema: textCommand),
        HostileTopic(label: "structured command", weight: 20, topic: { "guardian/parents/\($0)/commands" }, ids: parents, schema: structuredCommand),
        HostileTopic(
            label: "activity", weight: 10, topic: { "guardian/parents/\($0)/activity" }, ids: parents, schema: activity, emptyIsValid: true,
            properties: activityReplies,
            custom: { rng, id in
                // A well-formed request with nowhere to answer.
                BadMessage(topic: "guardian/parents/\(id)/activity", payload: activity.valid(&rng).data, how: .missing)
            }),
        HostileTopic(
            label: "usage", weight: 20, topic: { "guardian/events/\($0)/usage" }, ids: EventFields.deviceIds + ["fz-kid"], schema: usage,
            idField: "deviceId"),
        HostileTopic(
            label: "family", weight: 10, topic: { "guardian/families/\($0)" }, ids: ["fzfam", "fam-1", "fam-2"], schema: EventFields.family,
            emptyIsValid: true),
        HostileTopic(
            label: "profile", weight: 10, topic: { "guardian/events/\($0)/profile" }, ids: EventFields.deviceIds + ["fz-kid"],
            schema: EventFields.envelope(EventFields.profile), emptyIsValid: true),
    ])

    static let phrases = [
        "Block all games for 2 hours", "Give him 10 more minutes", "No more YouTube until homework is done", "Lift all restrictions",
        "Bedtime at 21:00 every school night", "what is the weather", "Block TikTok for 30 minutes", "Allow everything",
        "Shut it all down for 15 minutes then bedtime mode", "Tell Kiddo dinner is ready",
    ]

    /// Text a parent could send: phrases, and now and then noise (unicode, emoji, very long words).
    static func text(_ rng: inout SeededRandom) -> String {
        if rng.chance(0.6) { return rng.pick(phrases) }
        let pieces = ["block", "ｇａｍｅｓ", "🎮", "for", "٣", "hours", "\u{202E}tiktok", "e\u{301}", "until", "-1", "999999999", "minutes", "Kiddo", "ß", "ﬁ"]
        let noise = (0..<rng.int(1...30)).map { _ in rng.pick(pieces) }.joined(separator: rng.pick([" ", "", "  "]))
        return String(noise.prefix(900))
    }
}

extension HostileInputTests {
    @Test("command-router: 100,000 hostile commands, requests and events are each reported once; parents in between get their replies")
    func commandRouter() async throws {
        let run = try await FuzzRun(
            service: "command-router",
            outputs: ["guardian/parents/+/replies", "guardian/children/+/command", "guardian/parents/+/activity-replies/+"])
        let family = HJSON.object([
            ("parents", .array([.string("fz-parent")])), ("children", .array([.object([("deviceId", .string("fz-kid")), ("name", .string("Kiddo"))])])),
        ])
        try await run.publisher.publish("guardian/families/fzfam", payload: family.data, retain: true)
        let service = try CommandRouterService(config: try run.config(), logger: .quiet)
        try await run.start { try await service.run() }

        var warnings: [String] = []
        var texts: [String] = []
        var activityRequests: [String] = []
        var usageSeconds = 0.0
        let now = Timestamp.now()
        func askActivity(_ id: String) async {
            let topic = "guardian/parents/fz-parent/activity-replies/\(id)"
            activityRequests.append(topic)
            await run.sendValid(
                "guardian/parents/fz-parent/activity", Data(#"{"child": "Kiddo"}"#.utf8), properties: MQTTProperties(responseTopic: topic))
        }

        await run.flood(seed: 0xC0_44A2D, oversizedTopic: "guardian/parents/fz-parent/commands") { rng in
            CommandRouterHostility.topics.bad(&rng)
        } valid: { n, rng in
            let id = "ok-\(n)"
            switch n % 4 {
            case 0:
                warnings.append(id)
                let command = HJSON.object([("id", .string(id)), ("command", .object([("action", .string("warning")), ("message", .string("Dinner is ready (\(n))"))]))])
                await run.sendValid("guardian/parents/fz-parent/commands", command.data)
            case 1:
                texts.append(id)
                await run.sendValid("guardian/parents/fz-parent/commands", HJSON.object([("id", .string(id)), ("text", .string(CommandRouterHostility.text(&rng)))]).data)
            case 2:
                let seconds = Double(rng.int(1...600))
                usageSeconds += seconds
                let event = eventJSON(
                    id: "u-\(n)", deviceId: "fz-kid", ts: now.adding(seconds: Double(-3600 + n)),
                    [("app", .string("fuzzapp")), ("category", .string("games")), ("seconds", .number(seconds))])
                await run.sendValid("guardian/events/fz-kid/usage", event.data)
            default:
                await askActivity(id)
            }
        }

        await run.checkReports()

        // Each valid command got one reply; warnings were accepted and published to the child; every
        // activity request was answered.
        await run.waitForOutputs { outputs in
            let replied = Set(outputs.filter { $0.topic == "guardian/parents/fz-parent/replies" }.compactMap { $0.json?["commandId"] as? String })
            let answered = Set(outputs.map(\.topic))
            return Set(warnings + texts).isSubset(of: replied) && Set(activityRequests).isSubset(of: answered)
        }
        let replies = run.outputs(on: "guardian/parents/fz-parent/replies").compactMap(\.json)
        for id in warnings + texts {
            let mine = replies.filter { $0["commandId"] as? String == id }
            #expect(mine.count == 1, "command \(id) got \(mine.count) replies")
        }
        for id in warnings {
            #expect(replies.first { $0["commandId"] as? String == id }?["status"] as? String == "accepted", "warning \(id) not accepted")
        }
        let childCommands = run.outputs(on: "guardian/children/fz-kid/command").compactMap { $0.json?["id"] as? String }
        #expect(Set(warnings).isSubset(of: Set(childCommands)), "warnings published to the child")
        for topic in activityRequests {
            let answers = run.outputs(on: topic).compactMap(\.json)
            #expect(answers.count == 1 && answers.first?["child"] as? String == "fz-kid", "\(topic) answered \(answers.count) times")
        }
        // Replies to parents other than fz-parent come only from refused bad commands (never "accepted").
        #expect(!run.outputMessages.contains { $0.topic.hasSuffix("/replies") && $0.json?["status"] as? String == "accepted" && !($0.json?["commandId"] as? String ?? "").hasPrefix("ok-") })

        // Still alive: online, and the child's usage is exactly the valid usage events. The router counts
        // commands its policy refuses ("Give him 10 more minutes" with nothing to extend) as "rejected" too.
        let refused = replies.filter { ($0["commandId"] as? String ?? "").hasPrefix("ok-") && $0["status"] as? String == "rejected" }.count
        await run.checkAlive(otherRejections: refused)
        await askActivity("final")
        #expect(await run.waitForOutputs { $0.contains { $0.topic.hasSuffix("/final") } })
        let apps = run.outputs(on: "guardian/parents/fz-parent/activity-replies/final").first?.json?["apps"] as? [String: Any]
        #expect(apps?["fuzzapp"] as? Double == usageSeconds, "usage \(apps?["fuzzapp"] ?? "none") s, valid events sent \(usageSeconds) s")
        print(run.summary)
        await run.shutdown()
    }
}
