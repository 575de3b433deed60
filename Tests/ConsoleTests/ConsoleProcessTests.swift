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
        // Port 0: the console binds a free port itself (no race with another process) and logs its URL.
        let log = logs.url.appendingPathComponent("console.log")
        let process = try ServiceProcess(
            executable: Self.console, environment: ["GUARDIAN_MQTT_URL": broker.url, "GUARDIAN_CONSOLE_PORT": "0", "GUARDIAN_LOG_LEVEL": "info"],
            logFile: log)
        var announced: Int?
        #expect(await eventually(.seconds(120)) {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            guard let range = text.range(of: #"http\.url=http://127\.0\.0\.1:[0-9]+/"#, options: .regularExpression) else { return false }
            announced = Int(text[range].split(separator: ":").last!.dropLast())
            return true
        })
        let port = try #require(announced, "the console logs the URL it listens on")
        #expect(TestBroker.canConnect(port: port))
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
