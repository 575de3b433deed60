import Foundation
import GuardianShared
import GuardianTestSupport
import MQTT
import Testing

/// Ingest replicas as processes while devices publish: scaled down, killed for good, replaced by one
/// with a new id. Every fix becomes an event, and no session is left behind for a replica that is gone.
@Suite("Scaling ingest", .serialized)
struct ScalingTests {
    /// A broker, an observer tallying ingest's location events, the ingest replicas and a phone.
    private struct Scene {
        let broker: TestBroker
        let observer: MQTTClient
        let events: Tally
        let replicas: ReplicaSet
        let phone: MQTTClient

        init() async throws {
            try #require(FaultHarness.built("ingest"))
            broker = try TestBroker()
            observer = try await broker.connectedClient("observer")
            events = try await Tally(observer, "guardian/events/+/location")
            replicas = try await ReplicaSet("ingest", broker: broker, observer: observer)
            phone = try await broker.connectedClient("phones")
        }

        func tearDown() async throws {
            try await replicas.stopAll()
            await phone.shutdown()
            await observer.shutdown()
            broker.stop()
        }
    }

    /// Waits (up to 120 s) for an event of every fix of `expected`, then a moment for anything doubled,
    /// and expects no fix lost and none unexpected. Returns how long after `since` the last one came.
    private func expectEveryFixArrived(_ events: Tally, _ expected: Set<String>, since: ContinuousClock.Instant) async -> Duration {
        let all = await FaultHarness.waitUntil(timeout: .seconds(120)) { expected.isSubset(of: events.keys) }
        let took = ContinuousClock.now - since
        _ = await FaultHarness.waitUntil(timeout: .milliseconds(500)) { false }  // anything doubled would arrive now
        let lost = expected.subtracting(events.keys).count, unexpected = events.keys.subtracting(expected).count
        #expect(all && lost == 0 && unexpected == 0, "\(lost) fixes lost, \(unexpected) unexpected")
        return took
    }

    @Test("three replicas scaled to one with SIGTERM while devices publish: every fix one event, the leavers' sessions gone")
    func threeScaledToOne() async throws {
        let scene = try await Scene()
        let (events, replicas) = (scene.events, scene.replicas)
        for instance in ["r1", "r2", "r3"] { try await replicas.start(instance) }
        let phone = scene.phone

        // Scaling up spreads the load at once: each replica's share of 150 fixes from 50 devices.
        let first = fixes(150, devices: 50, prefix: "a")
        for fix in first { try await phone.publish(fix) }
        try #require(await FaultHarness.waitUntil(timeout: .seconds(120)) { events.distinct >= 150 })
        let accepted = { (instance: String) in replicas.latest(instance)?.stats["accepted"] ?? 0 }
        await FaultHarness.waitUntil(timeout: .seconds(30)) { ["r1", "r2", "r3"].map(accepted).reduce(0, +) >= 150 }
        let shares = ["r1", "r2", "r3"].map { "\($0) \(accepted($0))" }
        print("per-replica share of 150 fixes with 3 replicas: \(shares.joined(separator: ", "))")
        #expect(["r1", "r2", "r3"].allSatisfy { accepted($0) > 0 }, "\(shares)")

        // Scaled to one while a stream flows.
        let stream = fixes(600, devices: 50, prefix: "b")
        let sender = StreamSender(stream, with: phone, perSecond: 100)
        try #require(await FaultHarness.waitUntil(timeout: .seconds(120)) { sender.sent >= 150 })
        async let r2: Void = replicas.stop("r2")
        async let r3: Void = replicas.stop("r3")
        try await r2
        try await r3
        try await sender.finish()
        let sentAt = ContinuousClock.now
        let expected = Set(stream.compactMap { (try? JSONSerialization.jsonObject(with: $0.payload) as? [String: Any])?["id"] as? String })
        let took = await expectEveryFixArrived(events, expected.union(first.indices.map { "a\($0)" }), since: sentAt)
        #expect(took < .seconds(30), "the last events came \(took) after the stream ended")
        #expect(events.repeats == 0, "doubled: \(events.doubled.prefix(10))")
        print("scaled 3 → 1: \(expected.count) fixes, all events within \(took) of the stream's end, \(events.repeats) doubled")

        // The leavers ended their sessions and cleared their presence as they went.
        #expect(await FaultHarness.waitUntil(timeout: .seconds(60)) { replicas.cleared("r2") && replicas.cleared("r3") })
        #expect(try await replicas.sessionPresent("r2") == false)
        #expect(try await replicas.sessionPresent("r3") == false)
        try await scene.tearDown()
    }

    @Test("every replica stopped at once, fixes published meanwhile, all started again: every fix one event")
    func allStoppedAtOnce() async throws {
        let scene = try await Scene()
        let (events, replicas) = (scene.events, scene.replicas)
        let instances = ["r1", "r2", "r3"]
        for instance in instances { try await replicas.start(instance) }
        let phone = scene.phone
        let before = fixes(150, devices: 50, prefix: "s")
        for fix in before { try await phone.publish(fix) }
        try #require(await FaultHarness.waitUntil(timeout: .seconds(120)) { events.distinct >= 150 })

        // As `docker compose down`: all at once. The lowest id keeps its session, which collects the
        // next fixes; the others leave it to that one.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for instance in instances { group.addTask { try await replicas.stop(instance) } }
            try await group.waitForAll()
        }
        let during = fixes(150, devices: 50, prefix: "d")
        for fix in during { try await phone.publish(fix) }
        for instance in instances { try await replicas.start(instance) }
        let expected = Set((0..<150).flatMap { ["s\($0)", "d\($0)"] })
        _ = await expectEveryFixArrived(events, expected, since: .now)
        #expect(events.repeats == 0, "doubled: \(events.doubled.prefix(10))")
        try await scene.tearDown()
    }

    @Test("a replica killed with SIGKILL and never restarted: its share reaches the others, its session is gone within 60 s")
    func killedForGood() async throws {
        let scene = try await Scene()
        let (events, replicas) = (scene.events, scene.replicas)
        for instance in ["r1", "r2", "r3"] { try await replicas.start(instance) }
        let phone = scene.phone
        let stream = fixes(900, devices: 50, prefix: "k")
        let sender = StreamSender(stream, with: phone, perSecond: 100)
        try #require(await FaultHarness.waitUntil(timeout: .seconds(120)) { sender.sent >= 200 })
        try await replicas.stop("r3", signal: SIGKILL)
        let killedAt = ContinuousClock.now
        let sentAtKill = sender.sent
        let handedOver = Task {
            await FaultHarness.waitUntil(timeout: .seconds(60)) { replicas.cleared("r3") } ? ContinuousClock.now - killedAt : nil
        }
        try await sender.finish()
        let sentAt = ContinuousClock.now
        let expected = Set((0..<900).map { "k\($0)" })
        let took = await expectEveryFixArrived(events, expected, since: sentAt)
        #expect(sentAtKill < 900, "the kill landed after the stream was published")
        #expect(took < .seconds(30), "the last events came \(took) after the stream ended")
        // What r3 had stored but not yet acknowledged when it died is handled again by the replica that
        // took its session over, with the same event id (consumers drop it); nothing else is doubled.
        #expect(events.repeats <= 1000, "\(events.repeats) repeats")
        print("SIGKILL of 1 of 3: \(expected.count) fixes, all events within \(took) of the stream's end, \(events.repeats) repeated with their id")

        let handoverTook = try #require(await handedOver.value, "r3's presence was not cleared within 60 s of the kill")
        print("r3's session handed over and ended \(handoverTook) after the kill")
        #expect(try await replicas.sessionPresent("r3") == false)
        try await scene.tearDown()
    }

    @Test("the only replica replaced by one with a new id while devices publish: what waited for the old one reaches the new one")
    func replacedByNewId() async throws {
        let scene = try await Scene()
        let (events, replicas) = (scene.events, scene.replicas)
        try await replicas.start("old")
        let phone = scene.phone
        let stream = fixes(600, devices: 50, prefix: "n")
        let sender = StreamSender(stream, with: phone, perSecond: 100)
        try #require(await FaultHarness.waitUntil(timeout: .seconds(120)) { sender.sent >= 100 })
        try await replicas.stop("old")  // alone: it keeps its session, which goes on collecting fixes
        let stoppedAt = sender.sent
        try #require(await FaultHarness.waitUntil(timeout: .seconds(120)) { sender.sent >= stoppedAt + 60 })
        try await replicas.start("new")
        try await sender.finish()
        let sentAt = ContinuousClock.now
        let expected = Set((0..<600).map { "n\($0)" })
        let took = await expectEveryFixArrived(events, expected, since: sentAt)
        #expect(took < .seconds(30), "the last events came \(took) after the stream ended")
        #expect(events.repeats == 0, "doubled: \(events.doubled.prefix(10))")
        print("replaced by a new id: \(expected.count) fixes, all events within \(took) of the stream's end, \(events.repeats) doubled")

        try #require(await FaultHarness.waitUntil(timeout: .seconds(60)) { replicas.cleared("old") }, "the old replica's presence was not cleared within 60 s")
        #expect(try await replicas.sessionPresent("old") == false)
        try await scene.tearDown()
    }
}
