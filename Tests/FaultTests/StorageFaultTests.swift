import Foundation
import Glibc
import GuardianShared
import GuardianTestSupport
import MQTT
import Testing

/// A data directory that cannot be written at start, and a disk that fills up while a service runs,
/// with the services as their own processes (see `StorageFailure`).
@Suite("read-only or full data directory")
struct StorageFaultTests {
    static let services = ["ingest", "geofence", "predictor", "notifier", "timeline", "command-router"]
    static var executables: URL { URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent() }
    static func built(_ service: String) -> Bool { FileManager.default.isExecutableFile(atPath: executables.appendingPathComponent(service).path) }

    static func environment(broker: TestBroker, data: String, instance: String) -> [String: String] {
        [
            "GUARDIAN_MQTT_URL": broker.url, "GUARDIAN_DATA_DIR": data, "GUARDIAN_INSTANCE_ID": instance, "GUARDIAN_STATS_INTERVAL": "1",
            "GUARDIAN_LOG_LEVEL": "warning", "GUARDIAN_MODELS_DIR": TestBroker.repositoryRoot.appendingPathComponent("Models").path,
        ]
    }

    // MARK: At start

    /// What a service printed and how it ended when its store could not be opened.
    struct StartFailure {
        var status: Int32?
        var stdout: String
        var stderr: String
        var brokerLog: String

        var stderrLines: [Substring] { stderr.split(separator: "\n") }
        var crashed: Bool { (stdout + stderr).contains("Fatal error") || (stdout + stderr).contains("Stack dump") || (status ?? 0) >= 128 }
    }

    /// Runs `service` with `GUARDIAN_DATA_DIR=data` through `wrapper` (a shell command that ends with
    /// `exec "$0" 2>"$1"`, $0 the service and $1 the stderr file), on a broker of its own.
    static func runUntilExit(_ service: String, data: String, wrapper: [String], extra: [String] = []) async throws -> StartFailure {
        let broker = try TestBroker()
        let logs = try TemporaryDirectory()
        let stdout = logs.url.appendingPathComponent("stdout")
        let stderr = logs.url.appendingPathComponent("stderr")
        let process = try ServiceProcess(
            executable: URL(fileURLWithPath: wrapper[0]),
            arguments: Array(wrapper.dropFirst()) + [executables.appendingPathComponent(service).path, stderr.path] + extra,
            environment: environment(broker: broker, data: data, instance: "start"), logFile: stdout)
        let status = await process.waitForExit(timeout: .seconds(120))
        broker.stop()
        func read(_ url: URL) -> String { (try? String(contentsOf: url, encoding: .utf8)) ?? "" }
        return StartFailure(status: status, stdout: read(stdout), stderr: read(stderr), brokerLog: read(broker.logFile))
    }

    static func expectClearStartFailure(_ run: StartFailure, service: String, path: String, reason: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(run.status == StorageFailure.exitCode, "exit status \(String(describing: run.status))", sourceLocation: sourceLocation)
        #expect(!run.crashed, "\(run.stderr)", sourceLocation: sourceLocation)
        // One line on stderr that names the service, the database, and the operating system's reason.
        #expect(run.stderrLines.count == 1, "stderr: \(run.stderr)", sourceLocation: sourceLocation)
        let line = String(run.stderrLines.first ?? "")
        #expect(line.contains("critical") && line.contains("\(service) cannot start"), "\(line)", sourceLocation: sourceLocation)
        #expect(line.contains("cannot open database \(path)/\(service).sqlite"), "\(line)", sourceLocation: sourceLocation)
        #expect(line.contains(reason), "\(line)", sourceLocation: sourceLocation)
        #expect(run.stdout.isEmpty, "stdout: \(run.stdout)", sourceLocation: sourceLocation)
        // Never ran without storage: it did not even connect.
        #expect(!run.brokerLog.contains("as \(service)-start"), sourceLocation: sourceLocation)
    }

    @Test("a data directory under a regular file: exit 74 with one line on stderr naming the path and ENOTDIR, no broker connection", arguments: services)
    func dataDirectoryUnderAFile(service: String) async throws {
        try #require(Self.built(service))
        let scratch = try TemporaryDirectory()
        let file = scratch.url.appendingPathComponent("not-a-directory")
        try Data("x".utf8).write(to: file)
        let data = file.appendingPathComponent("data").path
        let run = try await Self.runUntilExit(service, data: data, wrapper: ["/bin/sh", "-c", #"exec "$0" 2>"$1""#])
        Self.expectClearStartFailure(run, service: service, path: data, reason: "cannot create directory \(data): Not a directory (errno 20)")
    }

    @Test("a second process on a store in use: exit 74 naming the conflict, and the first keeps running")
    func storeInUse() async throws {
        try #require(Self.built("ingest"))
        let broker = try TestBroker()
        let data = try TemporaryDirectory()
        let observer = try await broker.connectedClient("observer")
        let presence = try await MessageCollector(observer, "guardian/services/ingest/first")
        let first = try ServiceProcess(
            executable: Self.executables.appendingPathComponent("ingest"), environment: Self.environment(broker: broker, data: data.url.path, instance: "first"),
            logFile: data.url.appendingPathComponent("first.log"))
        let deadline = ContinuousClock.now + .seconds(120)
        while !presence.objects.contains(where: { $0["status"] as? String == "online" }) && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        let run = try await Self.runUntilExit("ingest", data: data.url.path, wrapper: ["/bin/sh", "-c", #"exec "$0" 2>"$1""#])
        Self.expectClearStartFailure(run, service: "ingest", path: data.url.path, reason: "another process is using this store")
        #expect(await first.waitForExit(timeout: .milliseconds(200)) == nil, "the first instance still runs")
        first.kill()
        await observer.shutdown()
        broker.stop()
    }

    /// True when this machine lets a process bind-mount a directory read-only in a mount namespace of
    /// its own (root, or unprivileged user namespaces): nothing outside that process sees the mount.
    static let canMountReadOnly: Bool = {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return false }
        guard let probe = try? TemporaryDirectory() else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        let script = #"mount --bind "$1" "$1" && mount -o remount,ro,bind "$1" "$1" && ! touch "$1/x" 2>/dev/null"#
        process.arguments = unshareFlags + ["/bin/sh", "-c", script, "sh", probe.url.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        return process.waitForExit(within: 60) && process.terminationStatus == 0
    }()
    static var unshareFlags: [String] { getuid() == 0 ? ["-m"] : ["-r", "-m"] }

    @Test(
        "a read-only data directory: exit 74 with one line on stderr naming the path and EROFS, no broker connection",
        .enabled(if: canMountReadOnly, "needs a private mount namespace (unshare -m)"), arguments: services)
    func readOnlyDataDirectory(service: String) async throws {
        try #require(Self.built(service))
        let scratch = try TemporaryDirectory()
        let empty = scratch.url.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        // In a mount namespace of its own, the shell makes $2 (the data directory) read-only, then runs
        // the service ($0) with stderr in $1.
        let script = #"mount --bind "$2" "$2" && mount -o remount,ro,bind "$2" "$2" && exec "$0" 2>"$1""#
        let wrapper = ["/usr/bin/unshare"] + Self.unshareFlags + ["/bin/sh", "-c", script]
        let run = try await Self.runUntilExit(service, data: empty.path, wrapper: wrapper, extra: [empty.path])
        Self.expectClearStartFailure(run, service: service, path: empty.path, reason: "data directory \(empty.path) is not writable: Read-only file system (errno 30)")
    }

    // MARK: While running

    /// The kernel's `prlimit`, which Swift's Glibc module does not import.
    static func setFileSizeLimit(pid: pid_t, bytes: UInt) throws {
        typealias Prlimit = @convention(c) (pid_t, Int32, UnsafePointer<rlimit>?, UnsafeMutablePointer<rlimit>?) -> Int32
        guard let symbol = dlsym(nil, "prlimit") else { throw TestBrokerError.cannotStart("no prlimit") }
        var limit = rlimit(rlim_cur: rlim_t(bytes), rlim_max: rlim_t.max)
        let result = unsafeBitCast(symbol, to: Prlimit.self)(pid, Int32(RLIMIT_FSIZE.rawValue), &limit, nil)
        guard result == 0 else { throw TestBrokerError.cannotStart("prlimit: errno \(errno)") }
    }

    /// Starts `service` so that the test can fill its disk: SIGXFSZ ignored (a write past the file size
    /// limit then fails with EFBIG, as on a full disk), and stderr through a pipe to `cat`, so that the
    /// service's last words reach the log even when it can no longer write files. Returns once the
    /// instance announced itself online.
    static func start(_ service: String, broker: TestBroker, data: URL, observer: MQTTClient) async throws -> ServiceProcess {
        let presence = try await MessageCollector(observer, "guardian/services/\(service)/disk")
        presence.clear()
        let log = data.appendingPathComponent("\(service).log")
        let process = try ServiceProcess(
            executable: URL(fileURLWithPath: "/bin/bash"),
            arguments: ["-c", #"trap '' XFSZ; exec 2> >(exec cat) 1>&2; exec "$0""#, executables.appendingPathComponent(service).path],
            environment: environment(broker: broker, data: data.path, instance: "disk"), logFile: log)
        let deadline = ContinuousClock.now + .seconds(120)
        while !presence.all.contains(where: { !$0.retain && (try? JSONDecoder().decode(Presence.self, from: $0.payload))?.status == .online }) {
            guard ContinuousClock.now < deadline else {
                process.kill(signal: SIGKILL)
                throw TestBrokerError.cannotStart("\(service) did not come online: \(((try? String(contentsOf: log, encoding: .utf8)) ?? "").suffix(1500))")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return process
    }

    /// Waits until `keys()` holds `expected` (or a generous ceiling passed) and returns what it holds then.
    static func wait(for expected: Set<String>, _ keys: () -> Set<String>) async -> Set<String> {
        let deadline = ContinuousClock.now + .seconds(120)
        while !keys().isSuperset(of: expected) && ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        return keys()
    }

    static func ids(_ collector: MessageCollector) -> Set<String> { Set(collector.objects.compactMap { $0["id"] as? String }) }

    /// Fills the disk of a running `service` while `during` sends it more, and checks it stopped the
    /// right way: exit 74, one line in its log and a report on `guardian/errors/{service}`, both naming
    /// its database.
    static func fillDisk(
        _ service: String, process: ServiceProcess, data: URL, errors: MessageCollector, during: () async throws -> Void
    ) async throws {
        try setFileSizeLimit(pid: process.pid, bytes: 1)
        try await during()
        let status = await process.waitForExit(timeout: .seconds(120))
        #expect(status == StorageFailure.exitCode, "exit status \(String(describing: status))")
        let database = data.appendingPathComponent("\(service).sqlite").path
        // The log goes through `cat` (the size limit binds the service, not it), which can finish a moment later.
        var log = ""
        _ = await eventually(.seconds(60)) {
            log = (try? String(contentsOf: data.appendingPathComponent("\(service).log"), encoding: .utf8)) ?? ""
            return log.contains("\(service) stopping:")
        }
        let stops = log.split(separator: "\n").filter { $0.contains("\(service) stopping: cannot write database \(database)") }
        #expect(stops.count == 1, "log: \(log.suffix(2000))")
        #expect(!log.contains("Fatal error") && !log.contains("Stack dump"))
        await errors.wait(for: 1)
        let report = try #require(errors.all.compactMap { try? JSONDecoder().decode(ErrorReport.self, from: $0.payload) }.first)
        #expect(report.service == service && report.reason.hasPrefix("storage failure, service stopped: cannot write database \(database)"), "\(report)")
    }

    @Test("ingest on a disk that fills up stops (exit 74, reported) without acknowledging; restarted, every event sent meanwhile comes through")
    func ingestDiskFull() async throws {
        try #require(Self.built("ingest"))
        let broker = try TestBroker()
        let data = try TemporaryDirectory()
        let observer = try await broker.connectedClient("observer")
        let events = try await MessageCollector(observer, "guardian/events/+/location")
        let errors = try await MessageCollector(observer, "guardian/errors/ingest")
        var ingest = try await Self.start("ingest", broker: broker, data: data.url, observer: observer)
        let phone = try await broker.connectedClient("phone")
        func send(_ range: Range<Int>) async throws {
            for i in range {
                try await phone.publish("guardian/devices/phone/location", payload: Data(#"{"id": "e\#(i)", "ts": \#(1_795_000_000 + i), "lat": 1, "lon": 1}"#.utf8))
            }
        }
        let all = Set((0..<60).map { "e\($0)" })
        let before = Set((0..<20).map { "e\($0)" })
        try await send(0..<20)
        #expect(await Self.wait(for: before) { Self.ids(events) } == before)

        try await Self.fillDisk("ingest", process: ingest, data: data.url, errors: errors) { try await send(20..<60) }
        // Nothing of the failure window was passed on (nor acknowledged: see below).
        #expect(Self.ids(events) == before)

        // The disk has room again; the service restarts and the broker redelivers.
        ingest = try await Self.start("ingest", broker: broker, data: data.url, observer: observer)
        #expect(await Self.wait(for: all) { Self.ids(events) } == all)
        ingest.kill()
        await phone.shutdown()
        await observer.shutdown()
        broker.stop()
    }

    @Test("notifier on a disk that fills up stops (exit 74, reported) without acknowledging; restarted, every notification comes through")
    func notifierDiskFull() async throws {
        try #require(Self.built("notifier"))
        let broker = try TestBroker()
        let data = try TemporaryDirectory()
        let observer = try await broker.connectedClient("observer")
        let notifications = try await MessageCollector(observer, "guardian/notifications/+")
        let errors = try await MessageCollector(observer, "guardian/errors/notifier")
        var notifier = try await Self.start("notifier", broker: broker, data: data.url, observer: observer)
        let router = try await broker.connectedClient("router")
        func reply(_ range: Range<Int>) async throws {
            for i in range {
                try await router.publish(
                    "guardian/parents/mum/replies", payload: Data(#"{"commandId": "c\#(i)", "status": "accepted", "summary": "Sam: no games for 2 hours"}"#.utf8))
            }
        }
        let all = Set((0..<40).map { "reply-c\($0)-accepted" })
        let before = Set((0..<10).map { "reply-c\($0)-accepted" })
        try await reply(0..<10)
        #expect(await Self.wait(for: before) { Self.ids(notifications) } == before)

        try await Self.fillDisk("notifier", process: notifier, data: data.url, errors: errors) { try await reply(10..<40) }
        #expect(Self.ids(notifications) == before)

        notifier = try await Self.start("notifier", broker: broker, data: data.url, observer: observer)
        #expect(await Self.wait(for: all) { Self.ids(notifications) } == all)
        #expect(notifications.all.allSatisfy { $0.topic == "guardian/notifications/mum" })
        notifier.kill()
        await router.shutdown()
        await observer.shutdown()
        broker.stop()
    }
}
