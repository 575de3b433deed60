import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
@testable import GuardianCommandRouter
import GuardianShared
import GuardianTestSupport
import Testing

@Suite("guardian-mcp driven by the official MCP Python client")
struct GuardianMCPTests {
    static var executables: URL { URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent() }
    static var mcp: URL { executables.appendingPathComponent("guardian-mcp") }

    /// Runs the Python client against `target` (an executable for stdio, or a URL) and returns its JSON report.
    static func runClient(_ target: String, environment: [String: String]) async throws -> [String: Any] {
        let (data, status) = try await PythonScript("Tests/MCPTests/mcp_client_check.py").run([target], environment: environment, ceiling: .seconds(360))
        #expect(status == 0)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(String(decoding: data, as: UTF8.self))")
    }

    /// The four tools listed with schemas, each called, answered as the router decided.
    static func expectToolsWork(_ result: [String: Any], router: CommandRouterService) throws {
        #expect(Set(result["tools"] as? [String] ?? []) == ["send_restriction_command", "get_device_status", "check_child_activity", "schedule_timed_restriction"])
        let schemas = try #require(result["schemas"] as? [String: [String: Any]])
        #expect(schemas.values.allSatisfy { $0["type"] as? String == "object" && $0["properties"] is [String: Any] })
        #expect((schemas["schedule_timed_restriction"]?["required"] as? [String]) == ["type", "start", "end"])
        let calls = try #require(result["calls"] as? [String: [String: Any]])
        func call(_ key: String) -> (error: Bool, text: String) {
            (calls[key]?["isError"] as? Bool ?? true, calls[key]?["text"] as? String ?? "")
        }
        #expect(call("0:send_restriction_command").error == false && call("0:send_restriction_command").text.contains("\"status\":\"accepted\""))
        #expect(call("1:get_device_status").error == false && call("1:get_device_status").text.contains("\"policy\":{"))
        #expect(call("2:check_child_activity").error == false && call("2:check_child_activity").text.contains("\"apps\""))
        #expect(call("3:schedule_timed_restriction").error == false && call("3:schedule_timed_restriction").text.contains("accepted"))
        #expect(call("4:get_device_status").error == true && call("4:get_device_status").text.contains("no child named Nobody"))
        #expect(router.counters["accepted"] == 2)
    }

    @Test("over stdio: lists the four tools with schemas and calls each over the real broker, as one parent")
    func toolsOverStdio() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.mcp.path), "build guardian-mcp first (swift build --build-tests)")
        let household = try await MCPHousehold()
        let result = try await Self.runClient(Self.mcp.path, environment: household.environment)
        try Self.expectToolsWork(result, router: household.router)
        await household.stop()
    }

    @Test("over Streamable HTTP: the same tools and answers; a request without a session is refused; SIGTERM stops it")
    func toolsOverHTTP() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.mcp.path), "build guardian-mcp first (swift build --build-tests)")
        let household = try await MCPHousehold()
        let logs = try TemporaryDirectory()
        // Port 0: the server binds a free port itself (no race with another process) and logs its URL.
        let log = logs.url.appendingPathComponent("guardian-mcp.log")
        let server = try ServiceProcess(
            executable: Self.mcp, environment: household.environment.merging(["GUARDIAN_MCP_HTTP_PORT": "0", "GUARDIAN_LOG_LEVEL": "notice"]) { $1 }, logFile: log)
        var announced: URL?
        #expect(await eventually(.seconds(120)) {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            guard let range = text.range(of: #"http://127\.0\.0\.1:[0-9]+/mcp"#, options: .regularExpression) else { return false }
            announced = URL(string: String(text[range]))
            return true
        })
        let url = try #require(announced, "guardian-mcp logs the URL it listens on")
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json, text/event-stream", forHTTPHeaderField: "Accept")
        request.httpBody = Data(#"{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}"#.utf8)
        var status = 0
        let deadline = ContinuousClock.now + .seconds(120)
        while status == 0 && ContinuousClock.now < deadline {
            status = (try? await URLSession.shared.data(for: request))?.1.httpStatusCode ?? 0
            if status == 0 { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(status == 400)

        let result = try await Self.runClient(url.absoluteString, environment: [:])
        try Self.expectToolsWork(result, router: household.router)

        server.kill(signal: SIGTERM)
        #expect(server.exitStatus == 0, "guardian-mcp stops cleanly on SIGTERM")
        await household.stop()
    }
}

extension URLResponse {
    var httpStatusCode: Int? { (self as? HTTPURLResponse)?.statusCode }
}
