import Foundation
import GuardianShared
import GuardianTestSupport
import MQTT
import Testing

/// A full day for the child in every service: events, zone visits, predictions, a timeline with a
/// correction, a command and policy, status, preferences and notifications.
func storeADay(_ h: PrivacyHarness, deviceId: String = PrivacyHarness.child) async throws {
    let device = try await h.broker.connectedClient("\(deviceId)-app", user: deviceId)
    defer { Task { await device.shutdown() } }
    let days = try await MessageCollector(h.admin, "guardian/timeline/\(deviceId)/days/+")
    let predictions = try await MessageCollector(h.admin, "guardian/predictions/\(deviceId)")
    let notifications = try await MessageCollector(h.admin, "guardian/notifications/+")
    let policies = try await MessageCollector(h.admin, "guardian/children/\(deviceId)/policy")
    let start = Timestamp.now().adding(seconds: -3 * 3600)
    func at(_ minutes: Double) -> String { start.adding(seconds: minutes * 60).rfc3339 }

    try await device.publish("guardian/devices/\(deviceId)/profile", payload: Data(#"{"timezone":"Europe/Paris","role":"child"}"#.utf8), retain: true)
    try await device.publish("guardian/users/\(deviceId)/preferences", payload: Data(#"{"nudgeThreshold":0.5}"#.utf8), retain: true)
    try await device.publish("guardian/devices/\(deviceId)/budget", payload: Data(#"{"ts":"\#(at(0))","utilization":0.97}"#.utf8))
    // Home, a walk, then 40 minutes at the arcade (a zone): enter and dwell.
    var fixes: [String] = []
    for minute in stride(from: 0.0, through: 60, by: 2) {
        let (lat, lon) = minute < 20 ? (48.8700, 2.3300) : (48.8566, 2.3522)
        fixes.append(#"{"ts":"\#(at(minute))","lat":\#(lat),"lon":\#(lon),"acc":10}"#)
    }
    try await device.publish("guardian/devices/\(deviceId)/location", payload: Data("[\(fixes.joined(separator: ","))]".utf8))
    let motions = [(0.0, "stationary"), (18, "walking"), (24, "stationary")].map { #"{"ts":"\#(at($0.0))","activity":"\#($0.1)","confidence":"high"}"# }
    try await device.publish("guardian/devices/\(deviceId)/motion", payload: Data("[\(motions.joined(separator: ","))]".utf8))
    try await device.publish("guardian/devices/\(deviceId)/usage", payload: Data(#"{"ts":"\#(at(30))","app":"roblox","category":"games","seconds":900}"#.utf8))
    try await device.publish("guardian/children/\(deviceId)/status", payload: Data(#"{"ts":"\#(at(61))","message":"games blocked"}"#.utf8), retain: true)

    let parent = try await h.broker.connectedClient("parent-alex-app", user: PrivacyHarness.parent)
    defer { Task { await parent.shutdown() } }
    try await parent.publish("guardian/parents/parent-alex/commands", payload: Data(#"{"id":"c-games","text":"Block all games for 2 hours"}"#.utf8))
    #expect(await h.eventually { !policies.all.isEmpty }, "the child's policy was published")
    #expect(await h.eventually { !predictions.all.isEmpty }, "the arcade visit was predicted")

    try await device.publish("guardian/timeline/\(deviceId)/generate", payload: Data("{}".utf8))
    #expect(await h.eventually { !days.all.isEmpty }, "the day was published")
    let day = try JSONDecoder().decode(JSONObject.self, from: days.all.last!.payload)
    guard case .array(let slots)? = day["slots"], let first = slots.first?["start"]?.string else {
        Issue.record("the day has no slots")
        return
    }
    let before = days.count
    try await device.publish("guardian/timeline/\(deviceId)/feedback", payload: Data(#"{"start":"\#(first)","category":"family"}"#.utf8))
    #expect(await h.eventually { days.count > before }, "the corrected day was republished")
    #expect(await h.eventually { notifications.all.contains { $0.topic.hasSuffix("/\(deviceId)") } }, "the child was notified")
}

@Suite("privacy: erase and export over a real mosquitto", .serialized)
struct PrivacyIntegrationTests {
    @Test("a parent's forget leaves no byte of the child's id in any store and no retained message about it")
    func forgetEverywhere() async throws {
        let h = try await PrivacyHarness()
        try await h.start()
        try await storeADay(h)
        let child = PrivacyHarness.child
        for service in PrivacyHarness.services {
            #expect(await h.eventually { h.occurrences(of: child, in: service) > 0 }, "\(service) holds the child's data before the erase")
        }

        let answers = try await h.ask(.forget, about: child, as: PrivacyHarness.parent)
        #expect(Set(answers.receipts.keys) == Set(PrivacyHarness.services))
        for (service, receipt) in answers.receipts {
            #expect(receipt.status == .done, "\(service): \(receipt.reason ?? "")")
            #expect(receipt.deviceId == child && receipt.action == .forget)
        }
        #expect((answers.receipts["ingest"]?.erased?["events"] ?? 0) > 0)
        #expect((answers.receipts["timeline"]?.erased?["corrections"] ?? 0) == 1)
        #expect((answers.receipts["command-router"]?.erased?["rules"] ?? 0) == 1)
        #expect((answers.receipts["notifier"]?.erased?["notifications"] ?? 0) > 0)

        for service in PrivacyHarness.services {
            let gone = await h.eventually { h.occurrences(of: child, in: service) == 0 }
            #expect(gone, "\(service) still holds the id: \(h.places(of: child, in: service))")
        }
        let all = try await h.retainedMessages()
        let retained = all.filter { $0.topic.contains(child) || $0.payload.range(of: Data(child.utf8)) != nil }
        #expect(retained.map(\.topic) == [], "retained messages about the child remain")
        await h.shutdown()
    }

    @Test("anyone but the device, its parents or admin is refused, and nothing is erased")
    func strangersAreRefused() async throws {
        let h = try await PrivacyHarness()
        try await h.start()
        try await storeADay(h)
        let child = PrivacyHarness.child
        let before = PrivacyHarness.services.map { h.occurrences(of: child, in: $0) }
        for stranger in ["alice", "phone-alice"] {
            for action in PrivacyRequest.Action.allCases {
                let answers = try await h.ask(action, about: child, as: stranger)
                #expect(Set(answers.receipts.keys) == Set(PrivacyHarness.services))
                #expect(answers.receipts.values.allSatisfy { $0.status == .refused && $0.reason?.contains("may not") == true })
                #expect(answers.exports.isEmpty)
            }
        }
        // The byte counts may shrink by themselves (checkpoints, the outbox's secure deletes): erasing
        // is told by the counters, and the data must still be there.
        let after = PrivacyHarness.services.map { h.occurrences(of: child, in: $0) }
        #expect(after.allSatisfy { $0 > 0 }, "the child's data is still held: \(before) → \(after)")
        for service in PrivacyHarness.services {
            #expect(h.counter(service, "privacyErased") == 0)
            #expect(h.counter(service, "privacyRefused") == 2 * PrivacyRequest.Action.allCases.count, "\(service) refused every stranger's request")
        }
        // Asking as someone else is stopped by the broker: the request never reaches a service.
        let alice = try await h.broker.connectedClient("alice-forger", user: "alice")
        let spied = try await MessageCollector(alice, "guardian/privacy/#")
        _ = try await h.ask(.export, about: child, as: PrivacyHarness.parent)
        #expect(await spied.settle().isEmpty, "alice read someone else's requests, receipts or exports")
        await #expect(throws: MQTTError.self) {
            try await alice.publish(
                "guardian/privacy/requests/parent-alex", payload: GuardianJSON.encode(PrivacyRequest(id: "forged", action: .forget, deviceId: child)))
        }
        await alice.shutdown()
        await h.shutdown()
    }

    @Test("an export holds every service's data about the device, and the device may ask for its own")
    func export() async throws {
        let h = try await PrivacyHarness()
        try await h.start()
        try await storeADay(h)
        let child = PrivacyHarness.child
        let answers = try await h.ask(.export, about: child, as: child)
        #expect(Set(answers.exports.keys) == Set(PrivacyHarness.services))
        #expect(answers.receipts.values.allSatisfy { $0.status == .done })
        let events = answers.exports["ingest"]?.data["events"]
        guard case .array(let items)? = events else { Issue.record("no events in ingest's export"); return }
        #expect(items.count > 30 && items.allSatisfy { $0["deviceId"]?.string == child })
        guard case .array(let days)? = answers.exports["timeline"]?.data["days"] else { Issue.record("no days in the timeline's export"); return }
        #expect(!days.isEmpty)
        #expect(answers.exports["predictor"]?.data["budget"]?["utilization"]?.number == 0.97)
        #expect(answers.exports["command-router"]?.data["rules"] != nil)
        guard case .array(let notifications)? = answers.exports["notifier"]?.data["notifications"] else { Issue.record("no notifications"); return }
        #expect(!notifications.isEmpty)
        #expect(answers.exports["geofence"]?.data["lastPosition"]?["lat"]?.number != nil)
        await h.shutdown()
    }

    @Test("a service down at the request erases and answers when it comes back; what was queued before the request is dropped")
    func downServiceAndQueuedMessages() async throws {
        let h = try await PrivacyHarness()
        try await h.start()
        try await storeADay(h)
        let child = PrivacyHarness.child
        // Timeline is down while the device publishes more and the erase is asked for.
        await h.stop(["timeline"])
        let device = try await h.broker.connectedClient("late-app", user: child)
        let ts = Timestamp.now().adding(seconds: -60).rfc3339
        try await device.publish("guardian/devices/\(child)/location", payload: Data(#"{"ts":"\#(ts)","lat":48.85,"lon":2.35}"#.utf8))
        await device.shutdown()
        let up = PrivacyHarness.services.filter { $0 != "timeline" }
        let first = try await h.ask(.forget, about: child, as: "admin", expecting: up)
        #expect(Set(first.receipts.keys) == Set(up))

        // Timeline back: it gets the late event (stored, then erased) and the request, and answers.
        let receipts = try await MessageCollector(h.admin, "guardian/privacy/receipts/admin/+/timeline/+")
        try await h.start(["timeline"])
        #expect(await h.eventually { receipts.count >= 1 }, "the timeline answered once it was back")
        #expect(await h.eventually { h.occurrences(of: child, in: "timeline") == 0 })

        // An event published before the erase but delivered after it (ingest was down) is dropped.
        await h.stop(["ingest"])
        let again = try await h.broker.connectedClient("later-app", user: child)
        try await again.publish(
            "guardian/devices/\(child)/location", payload: Data(#"{"ts":"\#(Timestamp.now().rfc3339)","lat":48.85,"lon":2.35}"#.utf8))
        await again.shutdown()
        let second = try await h.ask(.forget, about: child, as: "admin", expecting: PrivacyHarness.services.filter { $0 != "ingest" })
        #expect(second.receipts.count == 5)
        try await h.start(["ingest"])
        // Ingest drops it if it reads the request first; else it passes it on and both consumers drop it.
        let dropped = await h.eventually {
            h.counter("ingest", "droppedErased") >= 1 || (h.counter("timeline", "droppedErased") >= 1 && h.counter("geofence", "droppedErased") >= 1)
        }
        #expect(dropped, "the event that predates the erase was dropped, not stored again")
        for service in PrivacyHarness.services {
            #expect(await h.eventually { h.occurrences(of: child, in: service) == 0 }, "\(service) kept the queued event: \(h.places(of: child, in: service))")
        }
        await h.shutdown()
    }
}
