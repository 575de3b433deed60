import Foundation
import GuardianTestSupport
import Testing

/// The `console` executable as compose and `make run` start it.
@Suite("console as a process")
struct ConsoleProcessTests {
    static var console: URL { URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("console") }

    @Test("it serves parents from its environment's settings and stops cleanly on SIGTERM with a parent signed in; bad settings stop it at once")
    func gracefulShutdown() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.console.path), "build the console first (swift build --build-tests)")
        let broker = try TestBroker(access: .secured)
        let logs = try TemporaryDirectory()
        let port = try TestBroker.freePort()
        let process = try ServiceProcess(
            executable: Self.console,
            environment: ["GUARDIAN_MQTT_URL": broker.url, "GUARDIAN_CONSOLE_PORT": "\(port)", "GUARDIAN_LOG_LEVEL": "info"],
            logFile: logs.url.appendingPathComponent("console.log"))
        #expect(await eventually(.seconds(60)) { TestBroker.canConnect(port: port) })
        let visitor = ConsoleVisitor(port: port)
        #expect(try await visitor.signIn("parent-alex", broker.password(for: "parent-alex")!).head.status == .seeOther)
        await visitor.close()
        process.kill(signal: SIGTERM)
        #expect(await process.waitForExit(timeout: .seconds(120)) == 0)

        let refused = try ServiceProcess(
            executable: Self.console, environment: ["GUARDIAN_CONSOLE_IDLE_MINUTES": "never"], logFile: logs.url.appendingPathComponent("bad.log"))
        #expect(await refused.waitForExit(timeout: .seconds(120)) == 2)
        #expect(try String(contentsOf: logs.url.appendingPathComponent("bad.log"), encoding: .utf8).contains("GUARDIAN_CONSOLE_IDLE_MINUTES"))
        broker.stop()
    }
}
