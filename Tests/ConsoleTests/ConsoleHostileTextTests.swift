import Foundation
@testable import GuardianConsole
import GuardianShared
import GuardianTestSupport
import HTTPTypes
import HummingbirdTesting
import Testing

/// Markup, quotes and script in every value a page shows, put there through the broker and the
/// forms as a hostile family member, device or service could, and read back over HTTP.
@Suite("family console: hostile text is shown as text on every page", .serialized)
struct ConsoleHostileTextTests {
    /// Where the bus contract allows no control character (names, statuses, notifications, forms).
    static let markup = "\"><script>alert('x')</script>&'"
    /// Where it does (a device's own fields, a policy, a command).
    static let hostile = markup + "\u{7}"
    static let shown = "&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;&#39;"

    /// The page shows the value as text at least `count` times, and nowhere as markup or raw control character.
    func expectText(_ html: String, _ page: String, count: Int = 1, whole: Bool = true, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(html.components(separatedBy: Self.shown).count - 1 >= count, "\(page) shows the value \(count) times", sourceLocation: sourceLocation)
        #expect(!html.contains(Self.markup) && !html.contains("<script>alert") && !html.contains("\u{7}"), "\(page) has it as markup", sourceLocation: sourceLocation)
        if whole {
            #expect(html.components(separatedBy: "<script").count == 2, "\(page) has only the console's own script", sourceLocation: sourceLocation)
        }
    }

    func json(_ object: [String: Any]) throws -> Data { try JSONSerialization.data(withJSONObject: object) }

    @Test("a child's name, a zone, a device's battery and status, a policy, a command and its reply, a notification, a form's header")
    func everyPage() async throws {
        let h = try await ConsoleHarness()
        try await h.setFamily("fam-sam", parents: ["parent-alex"], children: [.init(deviceId: "tablet-sam", name: Self.markup), .init(deviceId: "tablet-kim", name: "Kim")])
        let zone = DangerZone(name: Self.markup, lat: 48.8570, lon: 2.3530, radius: 100, merchant: "x", regretRate: 0.5)
        try await h.admin.publish("guardian/zones/z-hostile", payload: GuardianJSON.encode(zone), retain: true)
        try await h.start([])
        let visitor = ConsoleVisitor(port: h.port)
        _ = try await visitor.signIn("parent-alex", h.broker.password(for: "parent-alex")!)
        let now = Timestamp.now().rfc3339
        let device = "guardian/events/tablet-sam", child = "guardian/children/tablet-sam"
        try await h.admin.publish("\(device)/state", payload: json(["ts": now, "batteryLevel": 0.5, "batteryState": Self.hostile]))
        try await h.admin.publish("\(device)/location", payload: json(["ts": now, "lat": 48.8567, "lon": 2.3523]))
        try await h.admin.publish("\(child)/status", payload: json(["ts": now, "message": Self.markup]), retain: true)
        try await h.admin.publish(
            "\(child)/policy", payload: json(["version": 1, "restrictions": [["id": "r", "kind": Self.hostile, "message": Self.hostile]]]), retain: true)
        try await h.admin.publish("\(child)/command", payload: json(["id": "c1", "issuedAt": now, "command": ["action": Self.hostile]]), retain: true)
        try await h.admin.publish("\(child)/ack", payload: json(["commandId": "c1", "ok": false, "error": Self.markup]), retain: true)
        let note = UserNotification(id: "n1", ts: .now(), kind: .status, title: Self.markup, body: Self.markup, priority: .high, data: [:])
        try await h.admin.publish("guardian/notifications/parent-alex", payload: GuardianJSON.encode(note))
        let text = Self.markup.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        #expect(try await visitor.post("/command", "csrf=\(visitor.csrf)&text=\(text)").head.status == .seeOther)
        let session = try #require(h.console.sessions.session(visitor.cookies["guardian_session"]))
        let sent = try #require(session.view.withLock { $0.commands.first })
        let reply = CommandReply(commandId: sent.id, status: .clarify, summary: Self.markup, reason: Self.markup)
        try await h.admin.publish("guardian/parents/parent-alex/replies", payload: GuardianJSON.encode(reply))

        // Card (name twice, battery, policy, command, ack, status), pickers, command, reply, answer form, notification, map.
        #expect(await eventually { (try? await visitor.get("/"))?.text.components(separatedBy: Self.shown).count ?? 0 >= 21 })
        let family = try await visitor.get("/").text
        expectText(family, "family", count: 21)
        #expect(family.contains(Self.shown + "\u{FFFD}"), "a control character is shown as U+FFFD")
        for section in [LiveSection.children, .commands, .notifications, .map] {
            let html = Console.render(section, session: session, onlineWindow: .seconds(600), tiles: nil, templates: h.console.templates)
            expectText(html, "live \(section.eventName)", whole: false)
        }
        let day = try await visitor.get("/day?child=tablet-sam&date=2026-11-18").text
        expectText(day, "day", count: 3)
        let daySection = Console.render(.day(child: "tablet-sam", date: "2026-11-18"), session: session, onlineWindow: .seconds(600), tiles: nil, templates: h.console.templates)
        expectText(daySection, "live day", whole: false)
        expectText(try await visitor.get("/privacy").text, "privacy", count: 3)
        expectText(try await visitor.get("/privacy/erase?child=tablet-sam").text, "erase", count: 4)
        let problem = try await visitor.get("/day?child=\(text)")
        #expect(problem.head.status == .notFound)
        expectText(problem.text, "problem")
        let erased = try await visitor.post("/privacy/erase", "csrf=\(visitor.csrf)&child=tablet-sam&confirm=tablet-sam")
        expectText(erased.text, "receipts")

        let stranger = ConsoleVisitor(port: h.port)
        let signIn = try await stranger.post("/signin", "user=x", headers: [.contentType: Self.markup])
        #expect(signIn.head.status == .badRequest)
        expectText(signIn.text, "sign-in problem")
        await stranger.close()
        await visitor.close()
        await h.shutdown()
    }
}
