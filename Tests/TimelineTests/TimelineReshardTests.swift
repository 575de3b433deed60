import Foundation
import GuardianShared
import GuardianTestSupport
@testable import GuardianTimeline
import MQTT
import Testing

/// A real broker and timeline instances in-process, with an admin client playing ingest and the app.
final class ShardedTimeline: @unchecked Sendable {
    let broker: TestBroker
    let admin: MQTTClient
    let days: MessageCollector
    let watch: ShardMoveWatch
    var instances: [(id: String, service: TimelineService, task: Task<Void, any Error>, data: TemporaryDirectory)] = []

    init() async throws {
        broker = try TestBroker()
        admin = try await broker.connectedClient("admin")
        days = try await MessageCollector(admin, "guardian/timeline/+/days/+")
        watch = try await ShardMoveWatch(admin, service: "timeline")
    }

    @discardableResult
    func start(_ id: String, shard: String, data: TemporaryDirectory? = nil) async throws -> TimelineService {
        let data = try data ?? TemporaryDirectory()
        let config = try broker.serviceConfig(
            service: "timeline", dataDirectory: data.url, instance: id, extra: ["GUARDIAN_SHARD": shard, "GUARDIAN_TIMELINE_RETRAIN_DELAY_MS": "100"])
        let service = try TimelineService(config: config, logger: .quiet)
        let task = try await startInProcess(service, name: "timeline", instance: id, observer: admin)
        instances.append((id, service, task, data))
        return service
    }

    func stop(_ id: String) async -> TemporaryDirectory? {
        guard let index = instances.firstIndex(where: { $0.id == id }) else { return nil }
        let instance = instances.remove(at: index)
        await stopInProcess(instance.task)
        return instance.data
    }

    func shutdown() async {
        for instance in instances { await stopInProcess(instance.task) }
        instances = []
        await admin.shutdown()
        broker.stop()
    }

    func counter(_ name: String) -> Int { instances.map { $0.service.counters[name] }.reduce(0, +) }

    /// The latest version of each device's days, without when it was generated.
    var published: [String: [PublishedDay.Slot]] {
        var latest: [String: [PublishedDay.Slot]] = [:]
        for message in days.all {
            if let day = try? JSONDecoder().decode(PublishedDay.self, from: message.payload) { latest["\(day.deviceId) \(day.date) \(day.timezone)"] = day.slots }
        }
        return latest
    }

    func profile(_ device: String) async throws {
        let ts = Timestamp(rfc3339: "2026-11-01T00:00:00Z")!
        let event = DeviceEvent(id: "p", deviceId: device, ts: ts, receivedAt: ts, body: DeviceProfile(timezone: "Europe/Paris", role: .child))
        try await admin.publish("guardian/events/\(device)/profile", payload: GuardianJSON.encode(event), retain: true)
    }

    func events(_ devices: [String], _ lines: ArraySlice<String>) async throws {
        for device in devices { try await SampleDay.publishEvents(lines, device: device, with: admin) }
    }

    func generate(_ devices: [String]) async throws {
        for device in devices { try await admin.publish("guardian/timeline/\(device)/generate", payload: Data("{}".utf8)) }
    }
}

/// Timeline re-sharded 1 → 2 → 1 while devices publish: each device's day as without re-sharding.
@Suite("timeline re-sharding over a real mosquitto")
struct TimelineReshardTests {
    static let devices = (0..<16).map { "tl-\($0)" }
    static let corrected = Array(devices.prefix(4))

    /// A third of the day, a generation, a correction for some devices (whose model then retrains
    /// and moves with them), another third and generation, the last third and generation, each
    /// phase run by `during`: nothing, or a move between shards.
    static func run(_ t: ShardedTimeline, during: [@Sendable () async throws -> Void]) async throws {
        let lines = SampleDay.lines
        let third = lines.count / 3
        let parts = [lines[..<third], lines[third..<(2 * third)], lines[(2 * third)...]]
        for device in devices { try await t.profile(device) }
        try await t.events(devices, parts[0])
        try await t.generate(devices)
        #expect(await eventually(.seconds(120)) { Set(t.published.keys.map { $0.split(separator: " ")[0] }).count == devices.count })
        let firstDays = t.published
        for device in corrected {
            let slots = try #require(firstDays.first { $0.key.hasPrefix("\(device) ") }?.value)
            let slot = try #require(slots.first { $0.activity != .unknown && $0.end > $0.start.adding(seconds: 120) })
            try await t.admin.publish(
                "guardian/timeline/\(device)/feedback", payload: Data(#"{"start": "\#(slot.start.adding(seconds: 60).rfc3339)", "category": "family"}"#.utf8))
        }
        #expect(await eventually(.seconds(120)) { t.counter("retrains") >= corrected.count })
        for (phase, part) in parts.dropFirst().enumerated() {
            async let move: Void = during[phase]()
            try await t.events(devices, part)
            try await t.generate(devices)
            try await move
        }
        try await t.generate(devices)
    }

    @Test("1 → 2 → 1 shards while devices publish: every device's day, corrections and model as with one shard")
    func reshardWhilePublishing() async throws {
        let control = try await ShardedTimeline()
        try await control.start("t0", shard: "0/1")
        try await Self.run(control, during: [{}, {}])
        // Every generation handled (three phases and the last), and every day it published received.
        #expect(await eventually(.seconds(120)) { control.counter("generations") >= 4 * Self.devices.count })
        #expect(await eventually(.seconds(120)) { control.days.count >= control.counter("daysPublished") })
        let expected = control.published
        await control.shutdown()

        let t = try await ShardedTimeline()
        try await t.start("t0", shard: "0/1")
        try await Self.run(
            t,
            during: [
                {
                    try await t.start("t1", shard: "1/2")
                    #expect(await t.watch.waitSettled(count: 2, instances: ["t0", "t1"]), "the move to 2 shards did not finish")
                },
                {
                    let data = await t.stop("t0")
                    try await t.start("t0", shard: "0/1", data: data)
                    #expect(await t.watch.waitSettled(count: 1, instances: ["t0", "t1"], ownNothing: ["t1"]), "the move back to 1 shard did not finish")
                    _ = await t.stop("t1")
                },
            ])
        let matched = await eventually(.seconds(120)) { t.published == expected }
        let published = t.published
        for key in Set(expected.keys).union(published.keys).sorted() {
            #expect(published[key] == expected[key], "\(key): \(published[key]?.count ?? 0) slots, \(expected[key]?.count ?? 0) without re-sharding")
        }
        #expect(matched)
        #expect(t.counter("adopted") > 0, "no device came back to t0 from t1")
        await t.shutdown()
    }

    /// The goal over timeline: 0 devices with state lost over 1,000 devices; prints how long each move takes.
    @Test("1,000 devices moved 1 → 2 → 1: every device's events still there to generate its day; the moves' durations printed")
    func thousandDevices() async throws {
        let devices = (0..<1000).map { "kid-\($0)" }
        let t = try await ShardedTimeline()
        try await t.start("t0", shard: "0/1")
        let start = Timestamp(rfc3339: "2026-11-18T08:00:00Z")!
        for device in devices {
            for (minute, activity) in [(0, Motion.Activity.walking), (20, .stationary)] {
                let ts = start.adding(seconds: Double(minute * 60))
                let event = DeviceEvent(id: "m\(minute)", deviceId: device, ts: ts, receivedAt: ts, body: Motion(activity: activity))
                try await t.admin.publish("guardian/events/\(device)/motion", payload: GuardianJSON.encode(event))
            }
        }
        #expect(await eventually(.seconds(120)) { t.counter("events") >= 2 * devices.count })

        let clock = ContinuousClock()
        var began = clock.now
        try await t.start("t1", shard: "1/2")
        #expect(await t.watch.waitSettled(count: 2, instances: ["t0", "t1"]), "the move to 2 shards did not finish")
        let toTwo = began.duration(to: clock.now)
        let movedToTwo = t.instances.last?.service.counters["adopted"] ?? 0

        began = clock.now
        let data = await t.stop("t0")
        try await t.start("t0", shard: "0/1", data: data)
        #expect(await t.watch.waitSettled(count: 1, instances: ["t0", "t1"], ownNothing: ["t1"]), "the move back to 1 shard did not finish")
        let backToOne = began.duration(to: clock.now)
        let movedBack = t.instances.last?.service.counters["adopted"] ?? 0
        _ = await t.stop("t1")

        try await t.generate(devices)
        func withDay() -> Set<String> {
            Set(t.days.all.compactMap { try? JSONDecoder().decode(PublishedDay.self, from: $0.payload) }.filter { !$0.slots.isEmpty }.map(\.deviceId))
        }
        #expect(await eventually(.seconds(120)) { withDay().count == devices.count }, "\(devices.count - withDay().count) devices whose events were lost")
        print("re-sharding timeline, \(devices.count) devices: 1 → 2 shards moved \(movedToTwo) devices in \(toTwo) (from starting the new shard); 2 → 1 moved \(movedBack) in \(backToOne) (from stopping shard 0 to restart it as 0/1)")
        await t.shutdown()
    }
}
