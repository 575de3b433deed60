import CSpawn
import Foundation
import Glibc

/// A Guardian executable started as its own process (it dies with the test process too).
public final class ServiceProcess: @unchecked Sendable {
    public let name: String
    public let pid: pid_t
    public let logFile: URL
    private var exited = false

    /// Starts `executable` with `environment` added to this process's environment.
    public init(executable: URL, environment: [String: String], logFile: URL) throws {
        name = executable.lastPathComponent
        self.logFile = logFile
        var merged = ProcessInfo.processInfo.environment
        merged.merge(environment) { $1 }
        // The spawn helper inherits the environment: set it around the fork.
        let saved = environment.keys.map { ($0, getenv($0).map { String(cString: $0) }) }
        for (key, value) in environment { setenv(key, value, 1) }
        defer {
            for (key, value) in saved {
                if let value { setenv(key, value, 1) } else { unsetenv(key) }
            }
        }
        var arguments: [UnsafeMutablePointer<CChar>?] = [strdup(executable.path), nil]
        defer { arguments.forEach { free($0) } }
        let child = guardian_spawn(&arguments, logFile.path)
        guard child > 0 else { throw TestBrokerError.cannotStart("cannot start \(executable.path): errno \(errno)") }
        pid = child
    }

    deinit { kill(signal: SIGKILL) }

    /// Sends `signal` and waits for the process to exit (SIGKILL after 10 s).
    public func kill(signal: Int32 = SIGTERM) {
        guard !exited else { return }
        Glibc.kill(pid, signal)
        var status: Int32 = 0
        for _ in 0..<1000 {
            if waitpid(pid, &status, WNOHANG) == pid {
                exited = true
                return
            }
            usleep(10_000)
        }
        Glibc.kill(pid, SIGKILL)
        waitpid(pid, &status, 0)
        exited = true
    }

    /// Resident memory in bytes (VmRSS from /proc).
    public var residentBytes: Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let kb = line.split(separator: " ").compactMap { Int($0) }.first
            return kb.map { $0 * 1024 }
        }
        return nil
    }
}
