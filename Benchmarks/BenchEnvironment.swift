import Foundation
import GuardianShared
import GuardianTestSupport
import MQTT
import Synchronization

/// A broker and Guardian services started as their own (release) processes for a benchmark.
final class BenchEnvironment {
    let broker: TestBroker
    let data: TemporaryDirectory
    let executables: URL
    private(set) var processes: [String: ServiceProcess] = [:]

    init(executables: URL) throws {
        self.executables = executables
        broker = try TestBroker(autosaveInterval: 10)
        data = try TemporaryDirectory()
    }

    deinit { stop() }

    /// Starts `service` and waits until it announces itself online.
    @discardableResult
    func start(_ service: String, environment: [String: String] = [:]) async throws -> ServiceProcess {
        let watcher = try await broker.connectedClient("bench-watch-\(service)")
        let presence = try await MessageCollector(watcher, "guardian/services/\(service)/bench")
        let process = try ServiceProcess(
            executable: executables.appendingPathComponent(service),
            environment: [
                "GUARDIAN_MQTT_URL": broker.url, "GUARDIAN_DATA_DIR": data.url.appendingPathComponent(service).path,
                "GUARDIAN_INSTANCE_ID": "bench", "GUARDIAN_LOG_LEVEL": "warning",
                "GUARDIAN_MODELS_DIR": URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Models").path,
            ].merging(environment) { $1 },
            logFile: data.url.appendingPathComponent("\(service).log"))
        processes[service] = process
        let deadline = ContinuousClock.now + .seconds(30)
        while !presence.objects.contains(where: { $0["status"] as? String == "online" }) {
            guard ContinuousClock.now < deadline else {
                await watcher.shutdown()
                throw BenchmarkError.notReady(service)
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        await watcher.shutdown()
        return process
    }

    func stop() {
        for process in processes.values { process.kill() }
        processes = [:]
        broker.stop()
    }

    /// CPU and memory of every service process, the broker and this benchmark, now.
    func usage() -> [String: ProcessUsage] {
        var result: [String: ProcessUsage] = [:]
        for (name, process) in processes { result[name] = ProcessUsage(pid: process.pid) }
        if let broker = broker.processID { result["mosquitto"] = ProcessUsage(pid: broker) }
        result["bench"] = ProcessUsage(pid: getpid())
        return result
    }

    /// Follows every instance's retained presence (`guardian/services/+/+`) for its counters.
    func watchPresence() async throws -> PresenceWatch {
        let client = try await broker.connectedClient("bench-presence-\(UUID().uuidString.prefix(6))")
        let watch = PresenceWatch(client: client)
        try await client.subscribe("guardian/services/+/+") { [watch] message in watch.received(message) }
        return watch
    }
}

extension TestBroker {
    /// The mosquitto process of this broker (found in /proc by its configuration path).
    var processID: pid_t? {
        let marker = directory.path
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries {
            guard let pid = pid_t(entry),
                let cmdline = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline"),
                String(decoding: cmdline, as: UTF8.self).contains(marker)
            else { continue }
            return pid
        }
        return nil
    }
}

/// CPU time per message of the service under test, the broker and the benchmark's own clients over
/// a benchmark's rounds, so that a reader sees where the time went (ours or the broker's).
struct CPUPerMessage {
    private var samples: [String: [Double]] = [:]
    private var busy: [Double] = []

    /// Records one round: `before`/`after` usage of the named processes, `messages` handled.
    mutating func record(_ before: [String: ProcessUsage], _ after: [String: ProcessUsage], messages: Int) {
        for (name, earlier) in before {
            guard let later = after[name], messages > 0 else { continue }
            samples[name, default: []].append(Double(later.ticks - earlier.ticks) / ProcessUsage.ticksPerSecond / Double(messages) * 1e6)
        }
        if let earlier = before.values.first, let later = after.values.first, later.machine.total > earlier.machine.total {
            let cores = Double(ProcessInfo.processInfo.activeProcessorCount)
            busy.append(Double(later.machine.busy - earlier.machine.busy) / Double(later.machine.total - earlier.machine.total) * cores * 100)
        }
    }

    /// `ingest 31 µs, mosquitto 38 µs, bench 22 µs per event (median of 5 rounds); machine 190% busy of 200%`.
    func summary(order: [String], unit: String) -> String {
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        let parts = order.compactMap { name in samples[name].map { String(format: "%@ %.0f µs", name, median($0)) } }
        let cores = Double(ProcessInfo.processInfo.activeProcessorCount) * 100
        return parts.joined(separator: ", ") + " per \(unit) (median of \(busy.count) rounds); machine "
            + (busy.isEmpty ? "?" : String(format: "%.0f%% busy of %.0f%%", median(busy), cores))
    }
}

/// The latest presence counters of each service (run them with `GUARDIAN_STATS_INTERVAL=1`).
final class PresenceWatch: Sendable {
    let client: MQTTClient
    private let stats = Mutex<[String: [String: Int]]>([:])

    init(client: MQTTClient) { self.client = client }

    func received(_ message: MQTTMessage) {
        let levels = message.topicLevels
        guard levels.count == 4, let presence = try? JSONDecoder().decode(Presence.self, from: message.payload) else { return }
        stats.withLock { $0[String(levels[2])] = presence.stats }
    }

    func counter(_ service: String, _ name: String) -> Int { stats.withLock { $0[service]?[name] ?? 0 } }

    /// Waits until `service` reports `name` of at least `value`; false on timeout.
    @discardableResult
    func wait(_ service: String, _ name: String, atLeast value: Int, timeout: Duration = .seconds(30)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while counter(service, name) < value {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return true
    }

    func shutdown() async { await client.shutdown() }
}

/// CPU time (whole process and busiest thread) and memory of a process, read from /proc.
struct ProcessUsage {
    static let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

    let taken = ContinuousClock.now
    /// Busy and total clock ticks of the whole machine at the same moment.
    let machine = ProcessUsage.machineTicks()
    /// user + system clock ticks, for the process and for each of its threads; system ticks alone.
    var ticks = 0
    var systemTicks = 0
    var threadTicks: [String: Int] = [:]
    /// VmRSS and VmHWM (peak resident), bytes.
    var resident = 0
    var peakResident = 0
    /// Bytes the process caused to be written to storage (`write_bytes` of /proc/{pid}/io).
    var writtenBytes = 0

    init(pid: pid_t) {
        (ticks, systemTicks) = Self.times(statFile: "/proc/\(pid)/stat") ?? (0, 0)
        if let io = try? String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8),
            let line = io.split(separator: "\n").first(where: { $0.hasPrefix("write_bytes:") })
        {
            writtenBytes = Int(line.split(separator: " ").last ?? "") ?? 0
        }
        for thread in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? [] {
            threadTicks[thread] = Self.times(statFile: "/proc/\(pid)/task/\(thread)/stat")?.total
        }
        if let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) {
            for line in status.split(separator: "\n") {
                let kb = (line.split(separator: " ").compactMap { Int($0) }.first ?? 0) * 1024
                if line.hasPrefix("VmRSS:") { resident = kb }
                if line.hasPrefix("VmHWM:") { peakResident = kb }
            }
        }
    }

    /// utime + stime, and stime (fields 14 and 15 of `stat`, counted after the parenthesised command name).
    static func times(statFile: String) -> (total: Int, system: Int)? {
        guard let text = try? String(contentsOfFile: statFile, encoding: .utf8), let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        return (user + system, system)
    }

    /// The whole machine: busy and total clock ticks over every core (first line of /proc/stat).
    static func machineTicks() -> (busy: Int, total: Int) {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8), let line = text.split(separator: "\n").first else { return (0, 0) }
        let values = line.split(separator: " ").dropFirst().compactMap { Int($0) }
        guard values.count >= 5 else { return (0, 0) }
        let total = values.prefix(8).reduce(0, +)
        return (total - values[3] - values[4], total)
    }

    /// Percent of one core used since `earlier`: by the whole process, by its busiest thread, and in the kernel.
    func cpu(since earlier: ProcessUsage) -> (process: Double, busiestThread: Double, system: Double) {
        let seconds = (taken - earlier.taken).seconds * Self.ticksPerSecond / 100
        guard seconds > 0 else { return (0, 0, 0) }
        let busiest = threadTicks.map { $0.value - (earlier.threadTicks[$0.key] ?? 0) }.max() ?? 0
        return (Double(ticks - earlier.ticks) / seconds, Double(busiest) / seconds, Double(systemTicks - earlier.systemTicks) / seconds)
    }
}

/// Percentiles of a sample, in the sample's unit.
struct Percentiles {
    let sorted: [Double]
    init(_ values: [Double]) { sorted = values.sorted() }
    func at(_ p: Double) -> Double { sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
}

/// How steady a ratio was over a benchmark's rounds, so a reader can tell a slow machine (every
/// round and the baseline low together) from a slow change (the ratio itself low).
struct RoundRatios {
    let values: [Double]

    init(_ measured: [Double], over baselines: [Double]) {
        values = zip(measured, baselines).map { $0 / $1 }
    }

    var median: Double { values.sorted()[values.count / 2] }
    var spread: Double { (values.max() ?? 0) - (values.min() ?? 0) }

    /// `ratio per round 0.52, 0.55, 0.54 (spread 0.03)`.
    var summary: String {
        "ratio per round " + values.map { String(format: "%.2f", $0) }.joined(separator: ", ") + String(format: " (spread %.2f)", spread)
    }

    /// One line: the goal, the median, every round, and whether it was met.
    func verdict(_ goal: String, atLeast threshold: Double) -> String {
        String(format: "verdict: %@ >= %.2f of raw relay: median %.2f, lowest round %.2f  %@", goal, threshold, median, values.min() ?? 0,
               median >= threshold ? (values.allSatisfy { $0 >= threshold } ? "met in every round" : "met (median)") : "NOT MET")
    }
}
