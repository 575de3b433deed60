import Foundation
import Glibc

/// A Python script of the tests (an MCP client, a browser check) run to its end, or killed after
/// a generous ceiling; its standard output and exit status.
public struct PythonScript {
    public let path: URL

    /// `path` relative to the repository root.
    public init(_ path: String) {
        self.path = TestBroker.repositoryRoot.appendingPathComponent(path)
    }

    public func run(_ arguments: [String] = [], environment: [String: String], ceiling: Duration = .seconds(600)) async throws -> (output: Data, status: Int32) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", path.path] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        try process.run()
        let reader = output.fileHandleForReading
        async let collected = blockingWork { reader.readDataToEndOfFile() }
        let deadline = ContinuousClock.now + ceiling
        while process.isRunning && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        let data = try await collected
        try await blockingWork { process.waitUntilExit() }
        return (data, process.terminationStatus)
    }
}
