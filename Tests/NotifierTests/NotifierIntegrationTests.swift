import Foundation
@testable import GuardianNotifier
import GuardianShared
import GuardianTestSupport
import MQTT
import Synchronization
import Testing

final class NotifierHarness: @unchecked Sendable {
    let broker = try! TestBroker()
    let data = try! TemporaryDirectory()
    let admin: MQTTClient
    let notifications: MessageCollector
    let errors: MessageCollector
    let time: TestClock
    var service: NotifierService?
    var task: Task<Void, any Error>?

    init(now: String = "2026-11-18T12:00:00Z") async throws {
        time = TestClock(now)
        admin = try await broker.connectedClient("admin")
        notifications = try await MessageCollector(admin, "guardian/notifications/+")
        errors = try await MessageCollector(admin, "guardian/errors/notifier")
    }

    func start() async throws {
        let config = try broker.serviceConfig(service: "notifier", dataDirectory: data.url, extra: ["GUARDIAN_NOTIFIER_WEBHOOK_BASE_DELAY_MS": "100"])
        let service = try NotifierService(config: config, logger: .quiet, clock: time.clock)
        self.service = service
        task = try await startInProcess(service, name: "notifier", observer: admin)
    }

    func stop() async {
        await stopInProcess(task)
        task = nil
        service = nil
    }

    func shutdown() async {
        await stop()
        await admin.shutdown()
        broker.stop()
    }

    func prediction(_ device: String, zone: String = "tech", probability: Double, id: String) async throws {
        let features = PurchaseFeatures(distanceToMerchant: 0.05, hourOfDay: 22, isWeekend: 1, budgetUtilization: 0.9, merchantRegretRate: 0.8, dwellTime: 0)
        let prediction = Prediction(
            id: id, ts: Timestamp(rfc3339: "2026-11-18T12:00:00Z")!, deviceId: device, zoneId: zone, merchant: "Tech Store", trigger: .enter,
            features: features, defaulted: [], probability: probability, threshold: 0.70,
            model: .init(name: "purchase-predictor", version: "1", sha256: "x"))
        try await admin.publish("guardian/predictions/\(device)", payload: GuardianJSON.encode(prediction))
    }

    func preferences(_ user: String, _ preferences: UserPreferences) async throws {
        try await admin.publish("guardian/users/\(user)/preferences", payload: GuardianJSON.encode(preferences), retain: true)
    }

    func family(_ id: String, parents: [String], children: [(String, String)]) async throws {
        let family = Family(parents: parents, children: children.map { Family.Child(deviceId: $0.0, name: $0.1) })
        try await admin.publish("guardian/families/\(id)", payload: GuardianJSON.encode(family), retain: true)
    }

    var received: [(recipient: String, notification: UserNotification)] {
        notifications.all.compactMap { message in
            (try? JSONDecoder().decode(UserNotification.self, from: message.payload)).map { (String(message.topic.split(separator: "/").last!), $0) }
        }
    }

    func settled(_ count: Int) async -> [(recipient: String, notification: UserNotification)] {
        await notifications.wait(for: count)
        _ = await notifications.settle(.milliseconds(400))
        return received
    }
}

@Suite("notifier over a real mosquitto")
struct NotifierIntegrationTests {
    @Test("a user's own threshold overrides 0.70 both ways; the text is one a person would want to read")
    func thresholdOverride() async throws {
        let h = try await NotifierHarness()
        try await h.preferences("strict", UserPreferences(nudgeThreshold: 0.9))
        try await h.preferences("eager", UserPreferences(nudgeThreshold: 0.5))
        try await h.start()
        try await h.prediction("default-user", probability: 0.82, id: "p1")
        try await h.prediction("default-user", zone: "other", probability: 0.65, id: "p2")
        try await h.prediction("strict", probability: 0.82, id: "p3")
        try await h.prediction("eager", probability: 0.6, id: "p4")
        let received = await h.settled(2)
        #expect(received.map(\.recipient).sorted() == ["default-user", "eager"])
        let nudge = try #require(received.first { $0.recipient == "default-user" }?.notification)
        #expect(nudge.kind == .spendingNudge && nudge.id == "nudge-p1")
        #expect(nudge.title == "Careful at Tech Store")
        #expect(nudge.body == "You're near Tech Store: 82% chance you'd regret a purchase here.")
        await h.shutdown()
    }

    @Test("quiet hours across midnight: nudges dropped, other notifications held and delivered after")
    func quietHours() async throws {
        let h = try await NotifierHarness(now: "2026-11-18T22:30:00Z")  // 23:30 in Paris
        try await h.preferences("parent-1", UserPreferences(quietHours: .init(start: "22:00", end: "07:00"), timezone: "Europe/Paris"))
        try await h.preferences("phone-1", UserPreferences(quietHours: .init(start: "22:00", end: "07:00"), timezone: "Europe/Paris"))
        try await h.start()
        try await h.prediction("phone-1", probability: 0.9, id: "night")
        let reply = CommandReply(commandId: "c1", status: .rejected, summary: "Block games", reason: "not your child")
        try await h.admin.publish("guardian/parents/parent-1/replies", payload: GuardianJSON.encode(reply))
        // Both handled (the nudge dropped, the reply held), so nothing may have been published.
        #expect(await eventually { h.service?.counters["dropped"] == 1 && h.service?.counters["held"] == 1 })
        #expect(await h.notifications.settle(.milliseconds(800)).isEmpty)
        h.time.set("2026-11-19T05:59:00Z")  // 06:59 in Paris: still quiet
        h.service?.releaseHeld()  // what the service does every 500 ms
        #expect(h.service?.counters["released"] == 0)
        #expect(await h.notifications.settle(.milliseconds(800)).isEmpty)
        h.time.set("2026-11-19T06:00:30Z")  // 07:00:30 in Paris
        let released = await h.settled(1)
        #expect(released.map(\.recipient) == ["parent-1"] && released.first?.notification.kind == .commandReply)
        #expect(released.first?.notification.body == "Block games (not your child)")
        await h.shutdown()
    }

    @Test("the hourly cap, muted zones and the zone cool-down")
    func capMuteCooldown() async throws {
        let h = try await NotifierHarness()
        try await h.preferences("capped", UserPreferences(maxNudgesPerHour: 2))
        try await h.preferences("muter", UserPreferences(mutedZones: ["tech"]))
        try await h.start()
        for zone in ["a", "b", "c", "d"] { try await h.prediction("capped", zone: zone, probability: 0.9, id: "cap-\(zone)") }
        try await h.prediction("muter", zone: "tech", probability: 0.9, id: "m1")
        try await h.prediction("muter", zone: "shoes", probability: 0.9, id: "m2")
        try await h.prediction("cooler", zone: "tech", probability: 0.9, id: "c1")
        try await h.prediction("cooler", zone: "tech", probability: 0.95, id: "c2")
        let received = await h.settled(4)
        #expect(received.filter { $0.recipient == "capped" }.count == 2)
        #expect(received.filter { $0.recipient == "muter" }.map { $0.notification.id } == ["nudge-m2"])
        #expect(received.filter { $0.recipient == "cooler" }.map { $0.notification.id } == ["nudge-c1"])
        // After the cool-down the same zone may nudge again.
        h.time.set("2026-11-18T13:01:00Z")
        try await h.prediction("cooler", zone: "tech", probability: 0.95, id: "c3")
        #expect(await h.settled(5).filter { $0.recipient == "cooler" }.count == 2)
        await h.shutdown()
    }

    @Test("routing: a nudge to its device, a child's status and acks to the family's parents, a reply to its parent")
    func routing() async throws {
        let h = try await NotifierHarness()
        try await h.family("fam-1", parents: ["mum", "dad"], children: [("kid-tab", "Sam")])
        try await h.start()
        try await h.prediction("kid-tab", probability: 0.9, id: "k1")
        let status = ChildStatus(ts: Timestamp(rfc3339: "2026-11-18T11:59:00Z")!, message: "Games blocked until 18:00")
        try await h.admin.publish("guardian/children/kid-tab/status", payload: GuardianJSON.encode(status), retain: true)
        try await h.admin.publish("guardian/children/kid-tab/ack", payload: GuardianJSON.encode(CommandAck(commandId: "c9", ok: false, error: "Screen Time is off")))
        try await h.admin.publish("guardian/parents/dad/replies", payload: GuardianJSON.encode(CommandReply(commandId: "c9", status: .accepted, summary: "Games blocked for 2 hours")))
        try await h.admin.publish(
            "guardian/children/kid-tab/command",
            payload: Data(#"{"id": "w1", "issuedAt": "2026-11-18T12:00:00.000Z", "issuedBy": "mum", "command": {"action": "warning", "message": "Dinner is in 10 minutes"}}"#.utf8),
            retain: true)
        let received = await h.settled(7)
        #expect(received.count == 7)
        let warning = try #require(received.first { $0.notification.kind == .warning })
        #expect(warning.recipient == "kid-tab" && warning.notification.body == "Dinner is in 10 minutes" && warning.notification.priority == .high)
        #expect(received.filter { $0.notification.kind == .spendingNudge }.map(\.recipient) == ["kid-tab"])
        let statuses = received.filter { $0.notification.kind == .status }
        #expect(statuses.map(\.recipient).sorted() == ["dad", "mum"] && statuses.first?.notification.title == "Sam's device")
        #expect(received.filter { $0.notification.id == "ack-kid-tab-c9" }.map(\.recipient).sorted() == ["dad", "mum"])
        #expect(received.filter { $0.notification.id.hasPrefix("reply-") }.map(\.recipient) == ["dad"])
        await h.shutdown()
    }

    @Test("a redelivery or a restart never notifies twice")
    func deduplication() async throws {
        let h = try await NotifierHarness()
        try await h.family("fam-1", parents: ["mum"], children: [("kid-tab", "Sam")])
        try await h.start()
        let status = ChildStatus(ts: Timestamp(rfc3339: "2026-11-18T11:59:00Z")!, message: "Bedtime")
        for _ in 0..<3 {
            try await h.prediction("phone-1", probability: 0.9, id: "same")
            try await h.admin.publish("guardian/children/kid-tab/status", payload: GuardianJSON.encode(status), retain: true)
        }
        _ = await h.settled(2)
        await h.stop()
        // The retained status comes again on restart.
        try await h.start()
        try await h.prediction("phone-1", probability: 0.9, id: "same")
        let received = await h.settled(2)
        #expect(received.map(\.notification.id).sorted() == ["nudge-same", "status-kid-tab-1795003140000"])
        await h.shutdown()
    }

    @Test("a failing webhook is retried with backoff until it recovers, without holding up anyone else")
    func webhookRetries() async throws {
        let server = try TestHTTPServer(statuses: [500], closed: true)
        let h = try await NotifierHarness()
        try await h.preferences("hooked", UserPreferences(webhookUrl: server.url))
        try await h.start()
        try await h.prediction("hooked", probability: 0.9, id: "w1")
        try await h.prediction("plain", probability: 0.9, id: "w2")
        // While the webhook fails (and is retried), both notifications go out over MQTT.
        #expect(await h.notifications.wait(for: 2).count == 2)
        #expect(await eventually { server.bodies.count >= 2 }, "retried")
        #expect(h.service?.counters["webhookDelivered"] == 0)
        server.open()
        #expect(await eventually(.seconds(120)) { h.service?.counters["webhookDelivered"] == 1 })
        // Every attempt but the last one failed and was counted as a retry.
        let attempts = server.bodies.count
        #expect(attempts >= 4 && h.service?.counters["webhookRetries"] == attempts - 1)
        let body = try #require(try JSONSerialization.jsonObject(with: server.bodies.last!) as? [String: Any])
        #expect(body["recipient"] as? String == "hooked" && (body["notification"] as? [String: Any])?["id"] as? String == "nudge-w1")
        // Delivered: no further attempt follows (the dispatcher polls every 200 ms).
        _ = await h.notifications.settle(.milliseconds(600))
        #expect(server.bodies.count == attempts)
        server.stop()
        await h.shutdown()
    }

    @Test("garbage is reported and valid traffic still flows")
    func garbage() async throws {
        let h = try await NotifierHarness()
        try await h.start()
        try await h.admin.publish("guardian/predictions/x", payload: Data("{".utf8))
        try await h.admin.publish("guardian/users/u1/preferences", payload: Data(#"{"quietHours": {"start": "25:00", "end": "07:00"}}"#.utf8), retain: true)
        try await h.admin.publish("guardian/families/f", payload: Data(#"{"parents": ["a/b"], "children": []}"#.utf8), retain: true)
        try await h.admin.publish("guardian/children/kid/ack", payload: Data(#"{"commandId": 5}"#.utf8))
        try await h.prediction("ok", probability: 0.9, id: "fine")
        #expect(await h.settled(1).count == 1)
        #expect(await h.errors.wait(for: 4).count == 4)
        await h.shutdown()
    }
}

@Suite("notification rules")
struct NotificationRulesTests {
    let rules = NotificationRules()
    let paris = TimeZone(identifier: "Europe/Paris")!

    @Test func quietHoursWindow() {
        let window = UserPreferences.QuietHours(start: "22:00", end: "07:00")
        #expect(window.contains(minuteOfDay: 22 * 60) && window.contains(minuteOfDay: 0) && window.contains(minuteOfDay: 6 * 60 + 59))
        #expect(!window.contains(minuteOfDay: 7 * 60) && !window.contains(minuteOfDay: 21 * 60 + 59))
        let day = UserPreferences.QuietHours(start: "13:00", end: "14:00")
        #expect(day.contains(minuteOfDay: 13 * 60 + 30) && !day.contains(minuteOfDay: 14 * 60))
    }

    @Test func heldUntilTheEndOfQuietHoursAcrossDST() {
        // 2026-10-25: Paris leaves summer time at 03:00; quiet hours end 07:00 local = 06:00 UTC.
        let preferences = UserPreferences(quietHours: .init(start: "22:00", end: "07:00"))
        let decision = rules.other(priority: .normal, preferences: preferences, timeZone: paris, now: Timestamp(rfc3339: "2026-10-24T22:30:00Z")!)
        #expect(decision == .hold(until: Timestamp(rfc3339: "2026-10-25T06:00:00Z")!))
        #expect(rules.other(priority: .high, preferences: preferences, timeZone: paris, now: Timestamp(rfc3339: "2026-10-24T22:30:00Z")!) == .deliver)
    }
}
