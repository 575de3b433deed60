import CSpawn
import Foundation
import Glibc

/// A real mosquitto on a free loopback port, with its own data directory, for tests and benchmarks.
///
/// `.secured` uses the repository's `broker-config/` (passwords and ACL); `.open` allows anonymous
/// clients. The process is killed when `stop()` runs, when this object is released, and — through
/// `PR_SET_PDEATHSIG` — when the test process itself dies.
public final class TestBroker: @unchecked Sendable {
    public enum Access { case open, secured }

    public let port: Int
    public let directory: URL
    public let access: Access
    /// Seconds between the broker's saves of its state: 1 for tests that kill the broker and expect
    /// what it held to come back; benchmarks use the shipped configuration's 10.
    public let autosaveInterval: Int
    private(set) var pid: pid_t = 0
    private let lock = NSLock()

    /// The repository root (this file is `Tests/Support/TestBroker.swift`).
    public static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    public init(access: Access = .open, autosaveInterval: Int = 1) throws {
        self.access = access
        self.autosaveInterval = autosaveInterval
        port = try TestBroker.freePort()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("guardian-broker-\(port)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("data"), withIntermediateDirectories: true)
        try writeConfiguration()
        try start()
    }

    deinit {
        kill()
        try? FileManager.default.removeItem(at: directory)
    }

    public var url: String { "mqtt://127.0.0.1:\(port)" }
    public var logFile: URL { directory.appendingPathComponent("mosquitto.log") }

    /// Development credentials from `broker-config/credentials.txt`.
    public static func password(for user: String) -> String? {
        let file = repositoryRoot.appendingPathComponent("broker-config/credentials.txt")
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2 && parts[0].trimmingCharacters(in: .whitespaces) == user {
                return parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    private func writeConfiguration() throws {
        let config = TestBroker.repositoryRoot.appendingPathComponent("broker-config")
        var lines = [
            "listener \(port) 127.0.0.1",
            // Run as whoever runs the tests (as root, mosquitto would switch to a user that cannot write the data dir).
            "user \(TestBroker.currentUser)",
            "persistence true",
            "persistence_location \(directory.appendingPathComponent("data").path)/",
            "autosave_interval \(autosaveInterval)",
            "max_queued_messages 1000000",
            "max_queued_bytes 0",
            "queue_qos0_messages true",
            "set_tcp_nodelay true",
            "max_inflight_messages 1000",
            "message_size_limit 33554432",
            "persistent_client_expiration 1d",
            "log_dest stdout",
            "log_type error",
            "log_type warning",
            "log_type notice",
            "log_timestamp true",
        ]
        switch access {
        case .open:
            lines.append("allow_anonymous true")
        case .secured:
            lines += [
                "allow_anonymous false",
                "password_file \(config.appendingPathComponent("passwd").path)",
                "acl_file \(config.appendingPathComponent("acl").path)",
            ]
        }
        try (lines.joined(separator: "\n") + "\n").write(to: directory.appendingPathComponent("mosquitto.conf"), atomically: true, encoding: .utf8)
    }

    /// Starts mosquitto and waits until it accepts connections.
    public func start() throws {
        lock.lock()
        defer { lock.unlock() }
        guard pid == 0 else { return }
        let arguments = ["mosquitto", "-c", directory.appendingPathComponent("mosquitto.conf").path]
        var cArguments = arguments.map { strdup($0) }
        cArguments.append(nil)
        defer { cArguments.forEach { free($0) } }
        let child = guardian_spawn(&cArguments, logFile.path)
        guard child > 0 else { throw TestBrokerError.cannotStart("spawn failed: errno \(errno)") }
        pid = child
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if TestBroker.canConnect(port: port) { return }
            var status: Int32 = 0
            if waitpid(child, &status, WNOHANG) == child {
                pid = 0
                let log = (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
                throw TestBrokerError.cannotStart("mosquitto exited (status \(status)): \(log.suffix(2000))")
            }
            usleep(20_000)
        }
        throw TestBrokerError.cannotStart("mosquitto did not listen on port \(port) within 10 s")
    }

    /// Stops mosquitto gracefully (it saves its persistence file) and waits for it to exit.
    public func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard pid > 0 else { return }
        Glibc.kill(pid, SIGTERM)
        var status: Int32 = 0
        for _ in 0..<500 {
            if waitpid(pid, &status, WNOHANG) == pid {
                pid = 0
                return
            }
            usleep(10_000)
        }
        Glibc.kill(pid, SIGKILL)
        waitpid(pid, &status, 0)
        pid = 0
    }

    /// Kills mosquitto at once, as a crash would.
    public func kill() {
        lock.lock()
        defer { lock.unlock() }
        guard pid > 0 else { return }
        Glibc.kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        pid = 0
    }

    public func restart() throws {
        stop()
        try start()
    }

    public var isRunning: Bool { lock.withLock { pid > 0 } }

    static var currentUser: String {
        guard let entry = getpwuid(getuid()), let name = entry.pointee.pw_name else { return "root" }
        return String(cString: name)
    }

    // MARK: Ports

    /// A TCP port on 127.0.0.1 that nothing listens on now.
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestBrokerError.cannotStart("socket: errno \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw TestBrokerError.cannotStart("bind: errno \(errno)") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// True when something accepts connections on 127.0.0.1:`port`.
    public static func canConnect(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }
}

public enum TestBrokerError: Error, CustomStringConvertible {
    case cannotStart(String)
    public var description: String {
        switch self {
        case .cannotStart(let why): return "cannot start mosquitto: \(why)"
        }
    }
}
