import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `fake_llm_server.py` (beside this file) running on a free loopback port, stopped by ``stop()`` or deinit.
public final class FakeLLMServer: @unchecked Sendable {
    public let port: Int
    private let process: Process
    private let lock = NSLock()

    public static var pythonAvailable: Bool {
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        probe.arguments = ["python3", "--version"]
        probe.standardOutput = FileHandle.nullDevice
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return false }
        return probe.waitForExit(within: 60) && probe.terminationStatus == 0
    }

    /// Starts the server; `slowSeconds` is how long mode `slow` takes to answer.
    public init(slowSeconds: Double = 3) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // Port 0: the server binds a free port itself and says which, so no other process can take it in between.
        process.arguments = ["python3", URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("fake_llm_server.py").path, "0", String(slowSeconds)]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // "listening PORT", or end of file should it exit first (a blocking read: the server prints at once or dies).
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) { line.append(byte) }
        guard let announced = String(decoding: line, as: UTF8.self).split(separator: " ").last.flatMap({ Int($0) }) else {
            port = 0
            stop()
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "fake LLM server did not start"])
        }
        port = announced
    }

    deinit { stop() }

    /// The base URL that makes the server behave as `mode` (see the script).
    public func baseURL(_ mode: String) -> URL { URL(string: "http://127.0.0.1:\(port)/\(mode)")! }

    /// The last request body the server received.
    public func lastRequest() async throws -> [String: Any] {
        let (data, _) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/last-request")!)
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    /// SIGTERM, then SIGKILL if the server is still running after 2 s (`waitForExit`): it runs in
    /// tests' `defer`, on one of the few threads every test's tasks share.
    public func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard process.isRunning else { return }
        process.terminate()
        process.waitForExit(within: 2)
    }
}
