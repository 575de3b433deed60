import Foundation
import GuardianCommandRouter
import GuardianShared
import GuardianTestSupport
import MQTT
import Testing

/// Every kind of notification a person gets, made by the real command-router and notifier: replies
/// to each kind of command, acknowledgements applied or not, a child's warning and restrictions, a
/// status change and a nudge. None shows an id, a raw enum name or a UTC timestamp; times are on
/// the recipient's clock.
@Suite("the words of notifications")
struct NotificationWordsTests {
    // Ids shaped like the ones the console and MCP make: none may reach a person's eyes.
    static let ids = [
        "console-AgwVFd7WR_aZ", "mcp-Q3x_9LmPz0", "console-Wn4_kQ81rTbe", "console-Bd7Tx_0qLmZa", "console-Lp2_vXc9Qe4r",
        "console-Ex9_tR4mWq2b", "console-Zq8_mN3bVc7x", "console-Tq0_Yh6sKd3p", "console-Un1_kO0wNn_zz",
    ]
    static let people = ["tablet-sam", "parent-alex", "fam-sam", "pred-Hq4_zT9k", "tech-Store_7"]

    @Test("every notification text: no ids, no raw enum names, no UTC timestamps; times on the recipient's clock")
    func everyText() async throws {
        let h = try await NotifierHarness(now: "2026-11-18T12:00:00Z")  // a Wednesday
        let routerData = try TemporaryDirectory()
        try await h.family("fam-sam", parents: ["parent-alex"], children: [("tablet-sam", "Sam")])
        // The parent lives in New York (UTC-5), the child's tablet in Paris (UTC+1).
        try await h.preferences("parent-alex", UserPreferences(timezone: "America/New_York"))
        let ts = Timestamp(rfc3339: "2026-11-01T00:00:00Z")!
        try await h.admin.publish(
            "guardian/events/tablet-sam/profile",
            payload: GuardianJSON.encode(DeviceEvent(id: "p", deviceId: "tablet-sam", ts: ts, receivedAt: ts, body: DeviceProfile(timezone: "Europe/Paris", role: .child))),
            retain: true)
        try await h.start()
        let router = try CommandRouterService(
            config: h.broker.serviceConfig(service: "command-router", dataDirectory: routerData.url), logger: .quiet, clock: h.time.clock)
        let routerTask = try await startInProcess(router, name: "command-router", observer: h.admin)

        func notified(_ id: String) async -> UserNotification? {
            _ = await eventually(.seconds(120)) { h.received.contains { $0.notification.id == id } }
            return h.received.first { $0.notification.id == id }?.notification
        }
        func command(_ id: String, _ command: String, child: String = "Sam") async throws {
            let request = #"{"id": "\#(id)", "child": "\#(child)", "command": \#(command)}"#
            try await h.admin.publish("guardian/parents/parent-alex/commands", payload: Data(request.utf8))
        }
        func ack(_ id: String, ok: Bool, error: String? = nil) async throws {
            try await h.admin.publish("guardian/children/tablet-sam/ack", payload: GuardianJSON.encode(CommandAck(commandId: id, ok: ok, error: error)))
        }

        // Games blocked for 2 hours (until 14:00 UTC: 09:00 in New York, 15:00 in Paris), applied.
        try await command(Self.ids[0], #"{"action": "shutdown", "categories": ["games"], "durationSeconds": 7200}"#)
        #expect(await notified("command-\(Self.ids[0])") != nil, "the child is told")
        try await ack(Self.ids[0], ok: true)
        let applied = try #require(await notified("ack-tablet-sam-\(Self.ids[0])"))
        #expect(applied.body == "In effect now: Games blocked until Wed 09:00.", "\(applied.body)")
        // YouTube blocked until 20:00 UTC (15:00 in New York), not applied.
        try await command(Self.ids[1], #"{"action": "block_app", "apps": ["youtube"], "until": "2026-11-18T20:00:00Z"}"#)
        let reply = try #require(await notified("reply-\(Self.ids[1])-accepted"))
        #expect(reply.body == "Sam: YouTube blocked until Wed 15:00", "\(reply.body)")
        #expect(await notified("command-\(Self.ids[1])") != nil)
        try await ack(Self.ids[1], ok: false, error: "the app is not installed")
        let failed = try #require(await notified("ack-tablet-sam-\(Self.ids[1])"))
        #expect(failed.body == "“YouTube blocked until Wed 15:00” could not be applied: the app is not installed", "\(failed.body)")
        // Every other kind of command, and its acknowledgement.
        try await command(Self.ids[2], #"{"action": "warning", "message": "Dinner is ready"}"#)
        try await command(Self.ids[3], #"{"action": "schedule", "schedule": {"start": "21:00", "end": "07:00", "type": "social_only", "repeat": "weekdays"}}"#)
        try await command(Self.ids[4], #"{"action": "allow", "categories": ["games"]}"#)
        try await command(Self.ids[5], #"{"action": "extend", "durationSeconds": 600, "categories": ["social"]}"#)
        try await command(Self.ids[6], #"{"action": "block_app", "apps": ["tiktok"], "condition": "homework"}"#)
        for id in Self.ids[2...4] {
            #expect(await notified("command-\(id)") != nil)
            try await ack(id, ok: true)
            #expect(await notified("ack-tablet-sam-\(id)") != nil)
        }
        // A child the parent does not have, an acknowledgement of a command the notifier never saw,
        // a status change and a nudge.
        try await command(Self.ids[7], #"{"action": "shutdown"}"#, child: "Zed")
        #expect(await notified("reply-\(Self.ids[7])-clarify") != nil)
        try await ack(Self.ids[8], ok: true)
        #expect(await notified("ack-tablet-sam-\(Self.ids[8])") != nil)
        try await h.admin.publish(
            "guardian/children/tablet-sam/status", payload: Data(#"{"ts": "2026-11-18T12:00:00Z", "message": "Battery low"}"#.utf8), retain: true)
        #expect(await notified("status-tablet-sam-\(Timestamp(rfc3339: "2026-11-18T12:00:00Z")!.milliseconds)") != nil)
        try await h.prediction("tablet-sam", zone: "tech-Store_7", probability: 0.9, id: "pred-Hq4_zT9k")
        #expect(await notified("nudge-pred-Hq4_zT9k") != nil)
        _ = await eventually(.seconds(120)) { h.received.filter { $0.notification.id.hasPrefix("reply-") }.count >= 8 }

        let texts = h.received.map { "\($0.notification.title) — \($0.notification.body)" }
        #expect(texts.count >= 20, "\(texts.count) notifications")
        for text in texts {
            for id in Self.ids + Self.people { #expect(!text.contains(id), "an id in \"\(text)\"") }
            #expect(text.range(of: #"[A-Za-z]+[-_][A-Za-z0-9_-]*[0-9A-Z_]"#, options: .regularExpression) == nil, "an id-shaped word in \"\(text)\"")
            #expect(text.range(of: #"\b[a-z]+_[a-z_]+\b"#, options: .regularExpression) == nil, "a raw enum name in \"\(text)\"")
            #expect(!text.lowercased().contains("shutdown"), "a raw enum name in \"\(text)\"")
            #expect(text.range(of: #"[0-9]{4}-[0-9]{2}-[0-9]{2}T|UTC|GMT|[0-9]Z\b"#, options: .regularExpression) == nil, "a UTC timestamp in \"\(text)\"")
            // 14:00 is the block's end in UTC, 15:00 in Paris; 20:00 and 21:00 YouTube's.
            if text.contains("Games blocked until") { #expect(!text.contains("14:00") && !text.contains("15:00"), "not the parent's clock: \"\(text)\"") }
            if text.contains("YouTube blocked until") { #expect(!text.contains("20:00") && !text.contains("21:00"), "not the parent's clock: \"\(text)\"") }
        }
        print(texts.sorted().joined(separator: "\n"))
        await stopInProcess(routerTask)
        await h.shutdown()
    }
}
