import Foundation
import GuardianPredictor
import GuardianShared
import GuardianTestSupport
import Histogram
import MQTT
import Synchronization

/// The whole pipeline under load, every service its own process on one broker: simulated devices
/// publish `guardian/devices/{id}/location`, ingest → geofence → predictor → notifier turn the fixes
/// that step into a danger zone into `guardian/notifications/{id}`.
///
/// 1. Paced: `rate` fixes/s for `seconds` (after a warm-up); latency from a zone-entering fix's
///    publish to its notification's arrival (HdrHistogram), probes against notifications, and each
///    service's resident memory at the end.
/// 2. Saturated, in `rounds` rounds: fixes published as fast as the pipeline keeps up (at most
///    `window` beyond the last fix whose notification came back); fixes/s through ingest and
///    geofence, notifications/s, each round beside the broker's raw relay rate for the same payloads
///    measured right after it (the pipeline drained), so a slow moment of the machine touches both.
///
/// Each device walks east along a row of zones, one fix in `LoadWalk.stepsPerZone` at a zone's centre
/// (a geofence `enter`), the next just outside (an `exit`), the rest between zones (nothing). No device
/// enters the same zone twice, so the notifier's zone cool-down never hides a probe, and the context
/// (a Saturday 22:00 UTC, a zone with a high regret rate) makes the bundled model nudge.
struct PipelineLoadBenchmark {
    let executables: URL
    var devices = Self.setting("GUARDIAN_BENCH_LOAD_DEVICES", 1000)
    var rate = Self.setting("GUARDIAN_BENCH_LOAD_RATE", 1000)
    var seconds = Self.setting("GUARDIAN_BENCH_LOAD_SECONDS", 25)
    var warmupSeconds = 3
    var saturatedSeconds = Self.setting("GUARDIAN_BENCH_LOAD_MAX_SECONDS", 15)
    /// Saturated rounds (`saturatedSeconds` in all), each followed by a raw relay round.
    var rounds = 3
    var window = Self.setting("GUARDIAN_BENCH_LOAD_WINDOW", 2000)
    var walk = LoadWalk(rows: 40, columns: 100, stepsPerZone: Self.setting("GUARDIAN_BENCH_LOAD_STEPS", 5))
    /// Run the paced phase (latency at `rate`) before the saturated one.
    var pacedPhase = true
    /// What this run's mix is called in the saturated line, and whether the 0.30 goal is judged on it.
    var mix = (name: "event-heavy", judged: false)

    /// Prints at once, also through a pipe (the section runs for a minute or more).
    func say(_ line: String) {
        print(line)
        fflush(nil)
    }

    static func setting(_ key: String, _ fallback: Int) -> Int { Int(ProcessInfo.processInfo.environment[key] ?? "") ?? fallback }

    static let megabyte = 1_048_576.0
    static let services = ["ingest", "geofence", "predictor", "notifier"]

    func run() async throws {
        say("== pipeline load, \(mix.name) mix (\(devices) devices, \(walk.zoneCount) zones, 1 fix in \(walk.stepsPerZone) enters a zone; devices -> ingest -> geofence -> predictor -> notifier, each a process) ==")
        let probability = try walk.probeProbability()
        guard probability.min >= 0.70 else {
            throw LoadError.noNudge(String(format: "the bundled model gives %.2f for a probe, below the 0.70 threshold", probability.min))
        }
        let environment = try BenchEnvironment(executables: executables)
        defer { environment.stop() }

        // The broker's raw relay rate for the same payloads, before anything else runs on it.
        let sample = (0..<40_000).map { walk.fix(device: $0 % devices, number: 1_000_000 + $0 / devices).payload }
        let relayBefore = environment.usage()
        var raws: [Double] = []
        for _ in 0..<3 {
            raws.append(
                try await RelayMeter(broker: environment.broker).measure(
                    publishTo: { "bench/raw/\(walk.deviceId($0 % devices))/location" }, payloads: sample, filter: "bench/raw/#",
                    expected: sample.count))
        }
        let raw = raws.sorted()[1]
        let relayAfter = environment.usage()

        // Zones first (retained), then the services, downstream first.
        let admin = try await environment.broker.connectedClient("bench-load-admin")
        let zoneWindow = PublishWindow(limit: 1000)
        for index in 0..<walk.zoneCount {
            await zoneWindow.acquire()
            admin.publish(MQTTOutgoing(topic: "guardian/zones/\(walk.zoneId(index))", payload: GuardianJSON.encode(walk.zone(index)), retain: true)) { _ in
                zoneWindow.release()
            }
        }
        await admin.shutdown()
        let presence = try await environment.watchPresence()
        for service in Self.services.reversed() {
            try await environment.start(service, environment: ["GUARDIAN_STATS_INTERVAL": "1"])
        }
        guard await presence.wait("geofence", "zones", atLeast: walk.zoneCount) else { throw LoadError.zonesNotLoaded(presence.counter("geofence", "zones")) }

        let book = ProbeBook()
        let listener = try await environment.broker.connectedClient("bench-load-notifications")
        try await listener.subscribe("guardian/notifications/+") { [book] in book.arrived($0) }
        // The sampled devices' messages between the stages, on a connection of their own.
        let stageListener = try await environment.broker.connectedClient("bench-load-stages")
        for device in (0..<devices).filter(DeviceFleet.sampled) {
            let id = walk.deviceId(device)
            try await stageListener.subscribe("guardian/events/\(id)/location") { [book] in book.passed(.ingest, $0) }
            try await stageListener.subscribe("guardian/geofence/\(id)") { [book] in book.passed(.geofence, $0) }
            try await stageListener.subscribe("guardian/predictions/\(id)") { [book] in book.passed(.predictor, $0) }
        }
        let publisher = try await environment.broker.connectedClient("bench-load-devices")
        var fleet = DeviceFleet(walk: walk, count: devices, publisher: publisher, book: book)

        // 1. Paced.
        let start = ContinuousClock.now
        if pacedPhase { try await runPaced(fleet: &fleet, book: book, environment: environment) }

        // 2. Saturated: closed loop on the notifications coming back, in rounds; after each, once the
        // pipeline has drained, the raw relay again.
        let counted = Dictionary(uniqueKeysWithValues: Self.services.map { ($0, presence.counterSnapshot($0)) })
        let firstSaturated = fleet.published
        var saturatedBefore = environment.usage()
        var saturatedAfter = saturatedBefore
        var rates: [Double] = []
        var roundRaws: [Double] = []
        var elapsed = 0.0
        var drained = true
        for _ in 0..<rounds {
            saturatedBefore = environment.usage()
            let roundFirst = fleet.published
            let roundStart = ContinuousClock.now
            let roundEnd = roundStart + .milliseconds(saturatedSeconds * 1000 / rounds)
            while ContinuousClock.now < roundEnd {
                if fleet.published - book.watermark > window {
                    try await Task.sleep(for: .microseconds(500))
                    continue
                }
                for _ in 0..<100 { await fleet.publishNext(phase: .saturated) }
            }
            drained = await book.drain([.saturated], timeout: .seconds(60)) && drained
            saturatedAfter = environment.usage()
            let seconds = ((book.lastArrival ?? ContinuousClock.now) - roundStart).seconds
            elapsed += seconds
            rates.append(Double(fleet.published - roundFirst) / seconds)
            roundRaws.append(
                try await RelayMeter(broker: environment.broker).measure(
                    publishTo: { "bench/raw/\(walk.deviceId($0 % devices))/location" }, payloads: sample, filter: "bench/raw/#",
                    expected: sample.count))
        }
        let saturatedCount = fleet.published - firstSaturated
        let fixesSeen = await presence.wait("geofence", "fixes", atLeast: fleet.published, timeout: .seconds(10))
        let saturated = book.report(.saturated)
        let throughput = Double(saturatedCount) / elapsed
        let perRound = RoundRatios(rates, over: roundRaws)
        let ratio = perRound.median

        say(String(format: "raw broker relay        %10.0f msg/s   (baseline, same payloads; median of %@)", raw,
                     raws.map { String(format: "%.0f", $0) }.joined(separator: ", ")))
        printCPU(from: relayBefore, to: relayAfter)
        let verdict = ratio >= 0.30 && drained && fixesSeen ? "met" : "NOT MET"
        say(String(format: "pipeline, saturated     %10.0f fixes/s through ingest and geofence (%d fixes in %.1f s, %d rounds, window %d), %.0f notifications/s  ratio %.2f of raw relay (median round)   %@",
                     throughput, saturatedCount, elapsed, rounds, window, Double(saturated.arrived) / elapsed, ratio,
                     mix.judged ? "goal >= 0.30  \(verdict)" : "(\(mix.name) mix: \(verdict == "met" ? "at least" : "below") 0.30)"))
        say("pipeline, saturated     raw relay after each round " + roundRaws.map { String(format: "%.0f", $0) }.joined(separator: ", ")
            + " msg/s; " + perRound.summary)
        if mix.judged {
            say(perRound.verdict("pipeline, \(mix.name) mix", atLeast: 0.35) + " (goal 0.30 with margin)")
        }
        say(String(format: "  under saturation: location -> notification p50 %.1f ms, p99 %.1f ms; %d of %d notifications arrived; geofence saw %d of %d fixes",
                     Double(saturated.histogram.valueAtPercentile(50)) / 1000, Double(saturated.histogram.valueAtPercentile(99)) / 1000,
                     saturated.arrived, saturated.sent, presence.counter("geofence", "fixes"), fleet.published)
            + (book.unexpected > 0 ? "; \(book.unexpected) notifications answered no probe" : ""))
        say("  stages: " + book.stageSummary(.saturated))
        say("  stage counts (saturated phase): " + [
            ("ingest", "accepted"), ("ingest", "republished"), ("geofence", "fixes"), ("geofence", "events"), ("predictor", "predictions"),
            ("predictor", "nudges"), ("notifier", "delivered"), ("notifier", "dropped"),
        ].map { "\($0.0).\($0.1) \(presence.counter($0.0, $0.1) - (counted[$0.0]?[$0.1] ?? 0))" }.joined(separator: ", ")
            + "; rejected " + Self.services.map { "\($0) \(presence.counter($0, "rejected"))" }.joined(separator: ", "))
        say("  last saturated round:")
        printCPU(from: saturatedBefore, to: saturatedAfter)
        say("  resident after saturation: " + Self.services.map {
            String(format: "%@ %.1f MB (peak %.1f)", $0, Double(saturatedAfter[$0]?.resident ?? 0) / Self.megabyte,
                   Double(saturatedAfter[$0]?.peakResident ?? 0) / Self.megabyte)
        }.joined(separator: ", "))

        book.writeTrace(since: start)
        await publisher.shutdown()
        await listener.shutdown()
        await stageListener.shutdown()
        await presence.shutdown()
    }


    /// Phase 1: `rate` fixes/s after a warm-up; latency, probes and resident memory.
    func runPaced(fleet: inout DeviceFleet, book: ProbeBook, environment: BenchEnvironment) async throws {
        let before = environment.usage()
        let warmup = rate * warmupSeconds
        let paced = rate * seconds
        let start = ContinuousClock.now
        while fleet.published < warmup + paced {
            let due = min(warmup + paced, Int((ContinuousClock.now - start).seconds * Double(rate)) + 1)
            while fleet.published < due { await fleet.publishNext(phase: fleet.published < warmup ? .warmup : .paced) }
            try await Task.sleep(for: .milliseconds(1))
        }
        let pacedElapsed = (ContinuousClock.now - start).seconds
        await book.drain([.warmup, .paced], timeout: .seconds(15))
        let after = environment.usage()
        let latency = book.report(.paced)

        let p50 = Double(latency.histogram.valueAtPercentile(50)) / 1000
        let p99 = Double(latency.histogram.valueAtPercentile(99)) / 1000
        let p999 = Double(latency.histogram.valueAtPercentile(99.9)) / 1000
        let allArrived = latency.arrived == latency.sent && latency.sent > 0
        say(String(format: "paced load              %10.0f fixes/s for %.0f s (after %d s warm-up), %d probes (zone entries)",
                     Double(paced) / (pacedElapsed - Double(warmupSeconds)), pacedElapsed - Double(warmupSeconds), warmupSeconds, latency.sent))
        say(String(format: "location -> notification  p50 %.2f ms, p99 %.2f ms, p99.9 %.2f ms, max %.2f ms (%d of %d notifications arrived)   goal p99 < 20 ms, all arrive  %@",
                     p50, p99, p999, Double(latency.histogram.max) / 1000, latency.arrived, latency.sent, p99 < 20 && allArrived ? "met" : "NOT MET"))
        for service in Self.services {
            let usage = after[service]
            let resident = Double(usage?.resident ?? 0) / Self.megabyte
            say(String(format: "  %@ resident %6.1f MB (peak %6.1f MB)   goal < 50 MB  %@", service.padding(toLength: 10, withPad: " ", startingAt: 0), resident,
                         Double(usage?.peakResident ?? 0) / Self.megabyte, usage != nil && resident < 50 ? "met" : "NOT MET"))
        }
        say("  stages: " + book.stageSummary(.paced))
        printCPU(from: before, to: after)
    }

    /// CPU per process over a phase, in % of one core (and its busiest thread's share), what each
    /// wrote to storage, and how busy the whole machine was (other processes compete for its cores).
    func printCPU(from before: [String: ProcessUsage], to after: [String: ProcessUsage]) {
        let names = (Self.services + ["mosquitto", "bench"]).filter { before[$0] != nil }
        var ours = 0.0
        say("  cpu, % of one core (busiest thread, in kernel): " + names.compactMap { name in
            guard let earlier = before[name], let later = after[name] else { return nil }
            let cpu = later.cpu(since: earlier)
            ours += cpu.process
            return String(format: "%@ %.0f%% (%.0f%%, %.0f%%)", name, cpu.process, cpu.busiestThread, cpu.system)
        }.joined(separator: ", "))
        let elapsed = (after["bench"]!.taken - before["bench"]!.taken).seconds
        say("  written to storage, MB/s: " + names.compactMap { name in
            guard let earlier = before[name], let later = after[name] else { return nil }
            return String(format: "%@ %.1f", name, Double(later.writtenBytes - earlier.writtenBytes) / Self.megabyte / elapsed)
        }.joined(separator: ", "))
        let (machine, now) = (before["bench"]!.machine, after["bench"]!.machine)
        let cores = Double(ProcessInfo.processInfo.activeProcessorCount)
        let busy = now.total > machine.total ? Double(now.busy - machine.busy) / Double(now.total - machine.total) * cores * 100 : 0
        say(String(format: "  machine: %.0f%% busy of %.0f%% (%.0f cores); other processes about %.0f%%", busy, cores * 100, cores, max(0, busy - ours)))
    }
}

enum LoadError: Error, CustomStringConvertible {
    case noNudge(String)
    case zonesNotLoaded(Int)
    var description: String {
        switch self {
        case .noNudge(let why): return "probes would not notify: \(why)"
        case .zonesNotLoaded(let count): return "geofence loaded only \(count) zones"
        }
    }
}

extension PresenceWatch {
    func counterSnapshot(_ service: String) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: ["accepted", "republished", "fixes", "events", "predictions", "nudges", "delivered", "dropped"].map {
            ($0, counter(service, $0))
        })
    }
}

/// Zones on a grid and each device's walk through them.
struct LoadWalk: Sendable {
    let rows: Int
    let columns: Int
    /// One fix in this many is at a zone's centre; the others are 100 m apart, heading east.
    var stepsPerZone = 5
    /// Metres between zone centres, east-west and north-south (room for `stepsPerZone` steps of 100 m).
    var spacing: Double { Double(max(5, stepsPerZone)) * 100 }
    /// A zone's radius: a fix at its centre enters, one 100 m away leaves (radius + hysteresis margin 15 m).
    var radius = 60.0
    var origin = (lat: 48.80, lon: 2.20)
    /// Saturday 22:00 UTC: the devices have no profile, so their local time is UTC.
    static let firstFix = Timestamp(rfc3339: "2026-11-21T22:00:00Z")!
    static let regretRate = 0.9

    var zoneCount: Int { rows * columns }
    var metresPerLatitudeDegree: Double { 111_320 }
    var metresPerLongitudeDegree: Double { 111_320 * cos(origin.lat * .pi / 180) }

    func deviceId(_ device: Int) -> String { "load-\(device)" }
    func zoneId(_ index: Int) -> String { "lz\(index)" }
    func fixId(device: Int, number: Int) -> String { "f\(device)-\(number)" }

    func centre(_ index: Int) -> (lat: Double, lon: Double) {
        (origin.lat + Double(index / columns) * spacing / metresPerLatitudeDegree,
         origin.lon + Double(index % columns) * spacing / metresPerLongitudeDegree)
    }

    func zone(_ index: Int) -> DangerZone {
        let centre = centre(index)
        return DangerZone(
            name: "Shop \(index)", lat: centre.lat, lon: centre.lon, radius: radius, merchant: "Shop \(index)", category: "shopping",
            regretRate: Self.regretRate)
    }

    /// Fix `number` of `device`: its payload and, when it is at a zone's centre, the zone it enters.
    /// Devices are staggered so that the entries spread evenly over time; a device's k-th zone is
    /// `device * 7 + k`, so it enters a new zone each time (for `zoneCount * stepsPerZone` fixes).
    func fix(device: Int, number: Int) -> (payload: Data, enters: String?) {
        let step = number + device % stepsPerZone
        let zone = (device * 7 + step / stepsPerZone) % zoneCount
        let phase = step % stepsPerZone
        let centre = centre(zone)
        let lon = centre.lon + Double(phase) * 100 / metresPerLongitudeDegree
        let ts = LoadWalk.firstFix.milliseconds / 1000 + Int64(number)
        let payload = String(format: #"{"id":"%@","ts":%lld,"lat":%.6f,"lon":%.6f,"acc":10,"speed":1.4}"#, fixId(device: device, number: number), ts, centre.lat, lon)
        return (Data(payload.utf8), phase == 0 ? zoneId(zone) : nil)
    }

    /// What the bundled model gives a probe, with the zone's regret rate and with the default one
    /// (should the predictor see the fix before the zone).
    func probeProbability() throws -> (withZone: Double, min: Double) {
        let models = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Models")
        let model = try XGBoostModel(json: Data(contentsOf: models.appendingPathComponent("purchase-predictor/model.json")))
        func probability(regret: Double) throws -> Double {
            try model.probability(
                PurchaseFeatures(distanceToMerchant: 0, hourOfDay: 22, isWeekend: 1, budgetUtilization: 0.75, merchantRegretRate: regret, dwellTime: 0)
                    .vector)
        }
        let withZone = try probability(regret: Self.regretRate)
        return (withZone, min(withZone, try probability(regret: 0.5)))
    }
}

/// The simulated devices: one connection publishes every device's fixes, round robin.
struct DeviceFleet {
    let walk: LoadWalk
    let count: Int
    let publisher: MQTTClient
    let book: ProbeBook
    let window = PublishWindow(limit: 1000)
    private(set) var published = 0

    init(walk: LoadWalk, count: Int, publisher: MQTTClient, book: ProbeBook) {
        self.walk = walk
        self.count = count
        self.publisher = publisher
        self.book = book
    }

    /// Devices whose probes are also timed at each stage (one in 50).
    static func sampled(_ device: Int) -> Bool { device % 50 == 0 }

    mutating func publishNext(phase: ProbeBook.Phase) async {
        let device = published % count
        let number = published / count
        let (payload, enters) = walk.fix(device: device, number: number)
        let deviceId = walk.deviceId(device)
        await window.acquire()
        if let enters {
            book.sent("\(deviceId)/\(enters)", sequence: published, phase: phase, fixId: Self.sampled(device) ? walk.fixId(device: device, number: number) : nil)
        }
        publisher.publish(MQTTOutgoing(topic: "guardian/devices/\(deviceId)/location", payload: payload)) { [window] _ in window.release() }
        published += 1
    }
}

/// Probes (zone-entering fixes) by `deviceId/zoneId`, and the notifications that answer them.
final class ProbeBook: Sendable {
    enum Phase { case warmup, paced, saturated }

    struct Report {
        var histogram = Histogram<UInt64>(lowestDiscernibleValue: 1, highestTrackableValue: 600_000_000, numberOfSignificantValueDigits: .three)
        var sent = 0
        var arrived = 0
    }

    private struct Pending {
        var sequence: Int
        var sent: ContinuousClock.Instant
        var phase: Phase
        /// For a sampled device: when its fix left ingest, its `enter` left geofence, its prediction left the predictor.
        var stages: [ContinuousClock.Instant?]?
    }

    /// Stages timed for the sampled devices' probes: what each subscription reports.
    enum Stage: Int, CaseIterable {
        case ingest, geofence, predictor
        var label: String { ["ingest", "geofence", "predictor"][rawValue] }
    }

    private struct State {
        var pending: [String: Pending] = [:]
        /// Latencies in microseconds, by phase.
        var reports: [Phase: Report] = [.warmup: Report(), .paced: Report(), .saturated: Report()]
        var watermark = 0
        var lastArrival: ContinuousClock.Instant?
        var unexpected = 0
        /// Sampled probes by fix id (ingest's events carry it), and their stage times (ms after publish) by phase.
        var sampledFixes: [String: String] = [:]
        var stageTimes: [Phase: [[Double]]] = [:]
        /// (sent, latency µs) of every probe, when tracing.
        var trace: [(sent: ContinuousClock.Instant, micros: UInt64, phase: Phase)] = []
    }

    /// With `GUARDIAN_BENCH_LOAD_TRACE=file`, every probe's send time and latency are written there
    /// (to find what the slow ones have in common).
    let tracing = ProcessInfo.processInfo.environment["GUARDIAN_BENCH_LOAD_TRACE"]

    private let state = Mutex(State())

    private struct Notification: Decodable {
        struct Body: Decodable {
            var deviceId: String
            var zoneId: String
        }
        var data: Body
    }

    /// Registers a probe just before it is published (`fixId` for a sampled device, whose stages are timed).
    func sent(_ key: String, sequence: Int, phase: Phase, fixId: String? = nil) {
        let now = ContinuousClock.now
        state.withLock {
            $0.pending[key] = Pending(sequence: sequence, sent: now, phase: phase, stages: fixId.map { _ in [nil, nil, nil] })
            if let fixId { $0.sampledFixes[fixId] = key }
            $0.reports[phase]!.sent += 1
        }
    }

    private struct StageMessage: Decodable {
        var id: String
        var deviceId: String
        var zoneId: String?
        var type: String?
    }

    /// A sampled device's ingest event, geofence event or prediction (on the stage listener's network thread).
    func passed(_ stage: Stage, _ message: MQTTMessage) {
        let now = ContinuousClock.now
        guard let seen = try? JSONDecoder().decode(StageMessage.self, from: message.payload) else { return }
        state.withLock { s in
            let key: String?
            switch stage {
            case .ingest: key = s.sampledFixes.removeValue(forKey: seen.id)
            case .geofence: key = seen.type == "enter" ? seen.zoneId.map { "\(seen.deviceId)/\($0)" } : nil
            case .predictor: key = seen.zoneId.map { "\(seen.deviceId)/\($0)" }
            }
            guard let key, s.pending[key]?.stages != nil else { return }
            s.pending[key]!.stages![stage.rawValue] = now
        }
    }

    /// Median and p99 of each stage's time after publish (ms), of the sampled probes of `phase`.
    func stageSummary(_ phase: Phase) -> String {
        let times = state.withLock { $0.stageTimes[phase] ?? [] }
        guard !times.isEmpty else { return "no sampled probe completed" }
        return (Stage.allCases.map { stage in
            let p = Percentiles(times.map { $0[stage.rawValue] })
            return String(format: "%@ out %.1f / %.1f", stage.label, p.at(0.5), p.at(0.99))
        } + [String(format: "notification %.1f / %.1f", Percentiles(times.map { $0[3] }).at(0.5), Percentiles(times.map { $0[3] }).at(0.99))])
            .joined(separator: ", ") + " ms after publish, median / p99 (\(times.count) probes)"
    }

    /// A notification (on the listener's network thread).
    func arrived(_ message: MQTTMessage) {
        let now = ContinuousClock.now
        guard let notification = try? JSONDecoder().decode(Notification.self, from: message.payload) else {
            return state.withLock { $0.unexpected += 1 }
        }
        let key = "\(notification.data.deviceId)/\(notification.data.zoneId)"
        state.withLock { s in
            guard let probe = s.pending.removeValue(forKey: key) else { return s.unexpected += 1 }
            let micros = UInt64(max(1, (now - probe.sent).seconds * 1_000_000))
            s.reports[probe.phase]!.histogram.record(micros)
            if tracing != nil { s.trace.append((probe.sent, micros, probe.phase)) }
            if let stages = probe.stages, stages.allSatisfy({ $0 != nil }) {
                s.stageTimes[probe.phase, default: []].append((stages.map { $0! } + [now]).map { ($0 - probe.sent).seconds * 1000 })
            }
            s.reports[probe.phase]!.arrived += 1
            s.watermark = max(s.watermark, probe.sequence)
            s.lastArrival = now
        }
    }

    /// The highest fix sequence number whose notification came back.
    var watermark: Int { state.withLock { $0.watermark } }
    var lastArrival: ContinuousClock.Instant? { state.withLock { $0.lastArrival } }
    /// Notifications that answer no probe (none expected).
    var unexpected: Int { state.withLock { $0.unexpected } }

    func report(_ phase: Phase) -> Report { state.withLock { $0.reports[phase]! } }

    /// Writes the trace: seconds since `start`, the same on CLOCK_MONOTONIC (as `perf record -k monotonic`), latency in ms, phase.
    func writeTrace(since start: ContinuousClock.Instant) {
        guard let tracing else { return }
        var monotonic = timespec()
        clock_gettime(CLOCK_MONOTONIC, &monotonic)
        let epoch = Double(monotonic.tv_sec) + Double(monotonic.tv_nsec) / 1e9 - (ContinuousClock.now - start).seconds
        let lines = state.withLock { s in
            s.trace.map {
                let offset = ($0.sent - start).seconds
                return String(format: "%.4f %.4f %.3f %@", offset, epoch + offset, Double($0.micros) / 1000, "\($0.phase)")
            }
        }
        try? (lines.joined(separator: "\n") + "\n").write(toFile: tracing, atomically: true, encoding: .utf8)
    }

    /// Waits until every probe of `phases` came back; false on timeout.
    @discardableResult
    func drain(_ phases: Set<Phase>, timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while state.withLock({ s in s.pending.values.contains { phases.contains($0.phase) } }) {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return true
    }
}
