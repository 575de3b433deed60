import BrokerAccess
import CSpawn
import Foundation
import Glibc

/// A real mosquitto on a free loopback port, with its own data directory, for tests and benchmarks.
///
/// `.secured` is set up as a first start is: the dynamic-security plugin with a new password for
/// admin, every service and the sample accounts (`phone-alice`, `tablet-sam`, `parent-alex`,
/// OwnTracks `alice`), each in its role; `.open` allows anonymous clients. With `tls`, a second
/// listener speaks TLS with a certificate made for this broker (`scripts/make-certificates.sh`). The process is killed when `stop()` runs, when this object is released, and — through
/// `PR_SET_PDEATHSIG` — when the test process itself dies.
public final class TestBroker: @unchecked Sendable {
    public enum Access { case open, secured }

    public let port: Int
    /// Held while this object lives, so a restart finds its ports still free (see `ReservedPort`).
    private let reservations: [ReservedPort]
    public let directory: URL
    public let access: Access
    /// Seconds between the broker's saves of its state: 1 for tests that kill the broker and expect
    /// what it held to come back; benchmarks use the shipped configuration's 10.
    public let autosaveInterval: Int
    /// The TLS listener's port, when the broker has one.
    public let tlsPort: Int?
    /// The generated passwords of a secured broker (`secrets/`, one file per account).
    public let secrets: BrokerSecrets
    private(set) var pid: pid_t = 0
    private let lock = NSLock()

    /// The repository root (this file is `Tests/Support/TestBroker.swift`).
    public static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    public init(access: Access = .open, autosaveInterval: Int = 1, tls: Bool = false) throws {
        self.access = access
        self.autosaveInterval = autosaveInterval
        reservations = try TestBroker.reservePorts(tls: tls)
        (port, tlsPort) = (reservations[0].port, reservations.dropFirst().first?.port)
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("guardian-broker-\(port)-\(UUID().uuidString.prefix(8))")
        secrets = BrokerSecrets(directory: directory.appendingPathComponent("secrets"))
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("data"), withIntermediateDirectories: true)
        if access == .secured {
            try secrets.initialise(securityFile: securityFile.path, extra: BrokerAccount.generatedSamples())
        }
        if tls { try TestBroker.makeCertificates(in: certificates) }
        try writeConfiguration()
        try start()
    }

    private static func reservePorts(tls: Bool) throws -> [ReservedPort] {
        tls ? [try ReservedPort(), try ReservedPort()] : [try ReservedPort()]
    }

    deinit {
        kill()
        try? FileManager.default.removeItem(at: directory)
    }

    public var url: String { "mqtt://127.0.0.1:\(port)" }
    public var logFile: URL { directory.appendingPathComponent("mosquitto.log") }

    /// The generated password of `user` on this (secured) broker.
    public func password(for user: String) -> String? { secrets.password(for: user) }

    /// The dynamic-security plugin's file, which the broker rewrites on every change.
    public var securityFile: URL { directory.appendingPathComponent("security/dynamic-security.json") }
    /// The TLS listener's CA (`ca.crt`), certificate and key.
    public var certificates: URL { directory.appendingPathComponent("tls") }

    private func writeConfiguration() throws {
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
            guard let plugin = DynamicSecurityPlugin.installedPath else {
                throw TestBrokerError.cannotStart("mosquitto's dynamic-security plugin is not installed (apt-get install mosquitto)")
            }
            lines += [
                "allow_anonymous false",
                "plugin \(plugin)",
                "plugin_opt_config_file \(securityFile.path)",
            ]
        }
        if let tlsPort {
            lines += [
                "listener \(tlsPort) 127.0.0.1",
                "cafile \(certificates.appendingPathComponent("ca.crt").path)",
                "certfile \(certificates.appendingPathComponent("server.crt").path)",
                "keyfile \(certificates.appendingPathComponent("server.key").path)",
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
        let deadline = Date().addingTimeInterval(60)
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
        throw TestBrokerError.cannotStart("mosquitto did not listen on port \(port) within 60 s")
    }

    /// Stops mosquitto gracefully (it saves its persistence file) and waits for it to exit (SIGKILL
    /// after 60 s, a ceiling, not a measure of speed).
    public func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard pid > 0 else { return }
        Glibc.kill(pid, SIGCONT)  // if paused
        Glibc.kill(pid, SIGTERM)
        var status: Int32 = 0
        for _ in 0..<6000 {
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

    /// Freezes mosquitto (SIGSTOP): its connections stay open, and it reads and answers nothing
    /// until `resume()` (or `stop()`).
    public func pause() {
        lock.lock()
        defer { lock.unlock() }
        if pid > 0 { Glibc.kill(pid, SIGSTOP) }
    }

    public func resume() {
        lock.lock()
        defer { lock.unlock() }
        if pid > 0 { Glibc.kill(pid, SIGCONT) }
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

    /// Runs `scripts/make-certificates.sh` (the same script as a first start) into `directory`.
    public static func makeCertificates(in directory: URL) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [repositoryRoot.appendingPathComponent("scripts/make-certificates.sh").path, directory.path]
        process.standardError = FileHandle.nullDevice
        try process.run()
        guard process.waitForExit(within: 300) else { throw TestBrokerError.cannotStart("make-certificates.sh still running after 300 s") }
        guard process.terminationStatus == 0 else {
            throw TestBrokerError.cannotStart("make-certificates.sh exited with \(process.terminationStatus)")
        }
    }

    // MARK: Ports

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
