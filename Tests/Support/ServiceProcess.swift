import CSpawn
import Foundation
import Glibc

/// A Guardian executable started as its own process (it dies with the test process too).
public final class ServiceProcess: @unchecked Sendable {
    public let name: String
    public let pid: pid_t
    public let logFile: URL
    private var exited = false
    /// The exit status once the process ended (128 + the signal if a signal ended it).
    public private(set) var exitStatus: Int32?

    /// Starts `executable` with `arguments`, and `environment` added to this process's environment.
    public init(executable: URL, arguments: [String] = [], environment: [String: String], logFile: URL) throws {
        name = executable.lastPathComponent
        self.logFile = logFile
        // The variables reach the child through env(1) rather than by changing this process's
        // environment around the fork: tests start processes concurrently, and setenv is not thread-safe.
        let command = ["/usr/bin/env"] + environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" } + [executable.path] + arguments
        var cArguments: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) }
        cArguments.append(nil)
        defer { cArguments.forEach { free($0) } }
        let child = guardian_spawn(&cArguments, logFile.path)
        guard child > 0 else { throw TestBrokerError.cannotStart("cannot start \(executable.path): errno \(errno)") }
        pid = child
    }

    deinit { kill(signal: SIGKILL) }

    /// Sends `signal` and waits for the process to exit (SIGKILL after 60 s, a ceiling for a process
    /// that would not stop, not a measure of speed).
    public func kill(signal: Int32 = SIGTERM) {
        guard !exited else { return }
        Glibc.kill(pid, signal)
        if pollExit(timeout: .seconds(60)) != nil { return }
        Glibc.kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        record(status)
    }

    /// Waits up to `timeout` for the process to end by itself; returns its exit status (128 + the
    /// signal if a signal ended it), or nil while it is still running.
    @discardableResult
    public func waitForExit(timeout: Duration) async -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let status = reap() { return status }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return reap()
    }

    private func pollExit(timeout: Duration) -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let status = reap() { return status }
            usleep(10_000)
        }
        return reap()
    }

    private func reap() -> Int32? {
        if exited { return exitStatus }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        record(status)
        return exitStatus
    }

    private func record(_ status: Int32) {
        exited = true
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import (they are macros).
        exitStatus = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
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
