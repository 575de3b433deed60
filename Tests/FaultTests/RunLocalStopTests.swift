import Foundation
import Glibc
import GuardianTestSupport
import Testing

/// `make run` (scripts/run-local.sh) stopped by Ctrl-C or another signal leaves nothing running.
@Suite("make run stops everything it started")
struct RunLocalStopTests {
    static let executables = FaultHarness.executables
    static let built = ["guardian", "ingest", "notifier", "console"].allSatisfy { FileManager.default.isExecutableFile(atPath: executables.appendingPathComponent($0).path) }

    @Test(
        "SIGTERM to make run's script: every service, the console and the log tail stop with it, the broker last, and its connection file goes",
        .enabled(if: RunLocalStopTests.built, "the executables are not built"))
    func sigtermStopsEverything() async throws {
        try await stopsEverything { script in kill(script, SIGTERM) }
    }

    /// The terminal sends Ctrl-C's SIGINT to the whole foreground group: were the broker and the
    /// services in it, they would all stop at once, the services without their broker.
    @Test(
        "Ctrl-C (SIGINT to make run's whole process group): the same clean stop, the broker last, nothing reported as exited",
        .enabled(if: RunLocalStopTests.built, "the executables are not built"))
    func ctrlCStopsEverything() async throws {
        let printed = try await stopsEverything { script in kill(-script, SIGINT) }
        #expect(!printed.contains("exited"), "a process was reported exited, not stopped:\n\(printed)")
    }

    /// Starts the script on its own state and ports, stops it with `stop` (given its pid, which leads
    /// its own process group), checks everything it started is gone; returns what it printed.
    @discardableResult
    func stopsEverything(_ stop: (pid_t) -> Void) async throws -> String {
        let folder = try TemporaryDirectory()
        // Its own state and ports: never the checkout's .run or a running make run.
        let run = folder.url.appendingPathComponent("run")
        let ports = try (0..<3).map { _ in try ReservedPort() }
        let output = folder.url.appendingPathComponent("run-local.out")
        let script = try ServiceProcess(
            executable: URL(fileURLWithPath: "/bin/bash"), arguments: [TestBroker.repositoryRoot.appendingPathComponent("scripts/run-local.sh").path],
            environment: [
                "GUARDIAN_BIN": Self.executables.path, "GUARDIAN_RUN_DIR": run.path, "GUARDIAN_PORT": String(ports[0].port),
                "GUARDIAN_TLS_PORT": String(ports[1].port), "GUARDIAN_CONSOLE_PORT": String(ports[2].port),
            ],
            logFile: output)
        // Everything it started, the log tail among them (each with its start time, against pid reuse),
        // once each has become itself (the tail starts after the banner; a child is "bash" until it execs).
        let expected: Set = ["mosquitto", "ingest", "notifier", "console", "tail"]
        let started = await {
            let printed = { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }
            #expect(await eventually(.seconds(300)) { printed().contains("Guardian is running") }, "make run did not start:\n\(printed())")
            _ = await eventually(.seconds(120)) { Set(descendants(of: script.pid).map(\.name)).isSuperset(of: expected) }
            return descendants(of: script.pid)
        }()
        defer {
            killGroup(script.pid)
            for child in started where child.isAlive { kill(child.pid, SIGKILL) }
        }
        let printed = { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }
        let connection = run.appendingPathComponent("connection")
        #expect(FileManager.default.fileExists(atPath: connection.path), "no .run/connection while running")
        let names = Set(started.map(\.name))
        #expect(names.isSuperset(of: expected), "started: \(names.sorted())")

        stop(script.pid)
        let status = await script.waitForExit(timeout: .seconds(120))
        #expect(status == 0, "make run's exit status: \(status.map(String.init) ?? "still running")\n\(printed())")
        // What it started is gone once it has exited (the ceiling only bounds a leftover).
        let leftover = { started.filter { $0.isAlive } }
        #expect(await eventually(.seconds(60)) { leftover().isEmpty }, "still running after make run stopped: \(leftover().map(\.name))")
        #expect(!FileManager.default.fileExists(atPath: connection.path), ".run/connection left behind")
        // The broker stopped last: no service lost its connection while it stopped.
        for name in ["ingest", "notifier", "geofence", "timeline", "predictor", "command-router"] {
            let log = (try? String(contentsOf: run.appendingPathComponent("logs/\(name).log"), encoding: .utf8)) ?? ""
            #expect(!log.contains("connection lost"), "\(name) lost the broker while it stopped:\n\(log.suffix(1500))")
        }
        _ = ports
        return printed()
    }

    /// One process: its pid, name and start time (field 22 of /proc/PID/stat).
    struct Child {
        let pid: pid_t
        let name: String
        let start: String

        static func read(_ pid: pid_t) -> (parent: pid_t, child: Child)? {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")")
            else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            // After the name: state, ppid, …, starttime (the 20th field after it).
            guard fields.count > 19, fields[0] != "Z", let parent = pid_t(fields[1]) else { return nil }
            return (parent, Child(pid: pid, name: String(stat[stat.index(after: open)..<close]), start: String(fields[19])))
        }

        /// Still running: the same process (same start time), not a zombie.
        var isAlive: Bool { Child.read(pid)?.child.start == start }
    }

    func descendants(of root: pid_t) -> [Child] {
        let all = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { pid_t($0) }.compactMap { Child.read($0) }
        var found: [Child] = []
        var parents: Set<pid_t> = [root]
        var grew = true
        while grew {
            grew = false
            for entry in all where parents.contains(entry.parent) && !parents.contains(entry.child.pid) {
                parents.insert(entry.child.pid)
                found.append(entry.child)
                grew = true
            }
        }
        return found
    }

    /// Whatever the test ends with, nothing of the group is left (the script leads its own group).
    func killGroup(_ pid: pid_t) {
        kill(-pid, SIGKILL)
    }
}
