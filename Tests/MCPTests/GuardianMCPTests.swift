import Foundation
@testable import GuardianCommandRouter
import GuardianShared
import GuardianTestSupport
import Testing

@Suite("guardian-mcp driven by the official MCP Python client")
struct GuardianMCPTests {
    static var executables: URL { URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent() }

    @Test("lists the four tools with schemas and calls each over the real broker, as one parent")
    func toolsOverStdio() async throws {
        let mcp = Self.executables.appendingPathComponent("guardian-mcp")
        try #require(FileManager.default.isExecutableFile(atPath: mcp.path), "build guardian-mcp first (swift build --build-tests)")
        let broker = try TestBroker(access: .secured)
        let data = try TemporaryDirectory()
        let admin = try await broker.connectedClient("admin")
        try await admin.publish(
            "guardian/families/alex", payload: GuardianJSON.encode(Family(parents: ["parent-alex"], children: [.init(deviceId: "tablet-sam", name: "Sam")])),
            retain: true)
        let router = try CommandRouterService(config: try broker.serviceConfig(service: "command-router", dataDirectory: data.url), logger: .quiet)
        let task = Task { try await router.run() }
        defer { task.cancel() }
        try await Task.sleep(for: .milliseconds(500))

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", TestBroker.repositoryRoot.appendingPathComponent("Tests/MCPTests/mcp_client_check.py").path, mcp.path]
        var environment = ProcessInfo.processInfo.environment
        environment["GUARDIAN_MQTT_URL"] = broker.url
        environment["GUARDIAN_MQTT_USERNAME"] = "guardian-mcp"
        environment["GUARDIAN_MQTT_PASSWORD"] = TestBroker.password(for: "guardian-mcp")
        environment["GUARDIAN_MCP_PARENT"] = "parent-alex"
        environment["GUARDIAN_LOG_LEVEL"] = "error"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        try process.run()
        let collected = Task.detached { output.fileHandleForReading.readDataToEndOfFile() }
        let deadline = ContinuousClock.now + .seconds(120)
        while process.isRunning && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        let data2 = await collected.value
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let result = try #require(try JSONSerialization.jsonObject(with: data2) as? [String: Any], "\(String(decoding: data2, as: UTF8.self))")
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
        task.cancel()
        _ = try? await task.value
        await admin.shutdown()
        broker.stop()
    }
}
