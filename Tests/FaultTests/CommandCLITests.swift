import Foundation
import GuardianCommandRouter
import GuardianShared
import GuardianTestSupport
import Testing

/// `guardian command` as a parent runs it, against a real broker.
@Suite("guardian command")
struct CommandCLITests {
    @Test("a refusal says why before what was asked; no router is a failure (exit 1), not a usage error")
    func refusalAndNoRouter() async throws {
        let guardian = try FaultHarness.guardianCLI()
        let broker = try TestBroker()
        let environment = ["GUARDIAN_MQTT_URL": broker.url]

        let unanswered = try await CommandOutput.run(guardian, ["command", "--parent", "mum", "--timeout", "1", "Block games"], environment: environment)
        #expect(unanswered.status == 1 && unanswered.text.contains("no reply from the command-router"), "\(unanswered.status): \(unanswered.text)")
        #expect(!unanswered.text.contains("Usage:"), "reported as a usage error: \(unanswered.text)")

        // A stand-in router that refuses every command, as the real one refuses a stranger's.
        let router = try await broker.connectedClient("router-stand-in")
        try await router.subscribe("guardian/parents/+/commands") { message in
            guard let body = try? JSONSerialization.jsonObject(with: message.payload) as? [String: Any], let id = body["id"] as? String else { return }
            let reply = CommandReply(commandId: id, status: .rejected, summary: "Games blocked", reason: "you are not a parent in any family")
            Task { try? await router.publish("guardian/parents/mum/replies", payload: GuardianJSON.encode(reply)) }
        }
        let refused = try await CommandOutput.run(guardian, ["command", "--parent", "mum", "--timeout", "60", "Block games"], environment: environment)
        #expect(refused.status == 1, "\(refused.status): \(refused.text)")
        #expect(refused.text.contains("rejected: you are not a parent in any family (asked: Games blocked)"), "\(refused.text)")

        await router.shutdown()
        broker.stop()
    }

    @Test("argument mistakes are usage errors before anything connects: a typo of a stream, an option it does not take, a date or threshold that is none")
    func argumentMistakes() async throws {
        let guardian = try FaultHarness.guardianCLI()
        // No broker at all: each must fail on its arguments, at once.
        let nowhere = ["GUARDIAN_MQTT_URL": "mqtt://127.0.0.1:\(try ReservedPort().port)"]
        for (arguments, says) in [
            (["tail", "evnets"], "is neither"), (["tail", "errors", "--device", "tablet-sam"], "--device goes with"),
            (["timeline", "show", "tablet-sam", "--date", "2026-13-45"], "is not a date"), (["predict", "0", "22", "1", "0.9", "0.8", "10", "--threshold", "5"], "--threshold must be from 0 to 1"),
            (["health", "--service", "bogus"], "no service 'bogus' reports its health: one of command-router, geofence"),
        ] {
            let output = try await CommandOutput.run(guardian, arguments, environment: nowhere)
            #expect(output.status == 64 && output.text.contains(says), "\(arguments): \(output.status) \(output.text)")
        }
    }

    @Test("a wrong password says which user and which settings to check, without retry noise")
    func wrongPassword() async throws {
        let guardian = try FaultHarness.guardianCLI()
        let broker = try TestBroker(access: .secured)
        let environment = ["GUARDIAN_MQTT_URL": broker.url, "GUARDIAN_MQTT_USERNAME": "guardian-cli", "GUARDIAN_MQTT_PASSWORD": "wrong"]
        let refused = try await CommandOutput.run(guardian, ["status"], environment: environment)
        #expect(refused.status == 1, "\(refused.status): \(refused.text)")
        #expect(refused.text.contains("for user guardian-cli: check GUARDIAN_MQTT_USERNAME"), "\(refused.text)")
        #expect(!refused.text.contains("reconnecting") && !refused.text.contains("Usage:"), "\(refused.text)")
        broker.stop()
    }
}
