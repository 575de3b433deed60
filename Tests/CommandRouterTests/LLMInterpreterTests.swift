import Foundation
@testable import GuardianCommandRouter
import GuardianShared
import GuardianTestSupport
import Testing

/// Each test starts its own fake server (a class suite: deinit stops it, pass or fail).
@Suite("LLM interpreter against a fake OpenAI-compatible server", .serialized, .enabled(if: FakeLLMServer.pythonAvailable))
final class LLMInterpreterTests {
    let server: FakeLLMServer
    /// Words the rules read: the model is never asked.
    let understood = "Block all games for 2 hours"
    /// Words the rules ask about ("project", "finished"): the model is asked.
    let unclear = "YouTube is fine for her now that her project is finished"
    /// Words the rules ask about that point neither way: any valid answer of the model stands.
    let neutral = "sort out what we talked about this morning for her"
    /// Words the rules ask about that lift a block ("undo"): a model's block is overruled.
    let reversal = "undo what I did to YouTube this morning"

    /// The slow mode answers long after any timeout a test sets, however slow this machine.
    init() throws { server = try FakeLLMServer(slowSeconds: 120) }

    deinit { server.stop() }

    /// `timeout` is a ceiling for the fake server's prompt answers, not a measure of speed.
    private func interpreter(_ mode: String, timeout: TimeInterval = 60) -> LLMInterpreter {
        LLMInterpreter(configuration: .init(baseURL: server.baseURL(mode), model: "gemma-test", timeout: timeout))
    }

    private func rules(_ text: String) -> Interpretation {
        BuiltInInterpreter().interpret(text, now: Fixtures.now, timeZone: Fixtures.newYork)
    }

    @Test("words the rules understand never reach the model")
    func rulesFirst() async throws {
        defer { server.stop() }
        for mode in ["valid", "block-youtube", "slow"] {
            let outcome = await interpreter(mode).interpretReportingSource(understood, now: Fixtures.now, timeZone: Fixtures.newYork)
            #expect(outcome.source == .rules)
            #expect(outcome.interpretation == .command(try ParentCommand(action: .shutdown, durationSeconds: 7200, categories: [.games]), child: nil))
        }
        #expect(try await server.lastRequest().isEmpty, "the server was asked")
    }

    @Test("what the rules would ask about goes to the model, whose valid answer is used, child included")
    func modelAnswersWhatTheRulesAsk() async throws {
        defer { server.stop() }
        #expect(rules(unclear).isClarify)
        let outcome = await interpreter("allow-youtube").interpretReportingSource(unclear, now: Fixtures.now, timeZone: Fixtures.newYork)
        #expect(outcome.source == .model)
        #expect(outcome.interpretation == .command(try ParentCommand(action: .allow, apps: ["youtube"]), child: "her"))
        let valid = await interpreter("valid").interpretReportingSource(neutral, now: Fixtures.now, timeZone: Fixtures.newYork)
        #expect(valid.source == .model)
        #expect(valid.interpretation == .command(try ParentCommand(action: .shutdown, durationSeconds: 4321, categories: [.games]), child: "Sam"))
    }

    @Test("the model's answer passes the same safety net: a block for words that lift one becomes a question")
    func modelAnswerThroughTheSafetyNet() async throws {
        defer { server.stop() }
        #expect(rules(reversal).isClarify)
        let blocked = await interpreter("block-youtube").interpretReportingSource(reversal, now: Fixtures.now, timeZone: Fixtures.newYork)
        #expect(blocked.source == .modelOverruled)
        let question = try #require(blocked.interpretation.question)
        #expect(question.contains("lifting a block") && question.contains("YouTube"), "\(question)")
        let allowed = await interpreter("allow-youtube").interpretReportingSource(reversal, now: Fixtures.now, timeZone: Fixtures.newYork)
        #expect(allowed.source == .model)
        #expect(allowed.interpretation.command?.action == .allow)
    }

    @Test("the request asks for the nested json_schema form and describes the schema in the prompt")
    func request() async throws {
        defer { server.stop() }
        _ = await interpreter("valid").interpret(unclear, now: Fixtures.now, timeZone: Fixtures.newYork)
        let body = try await server.lastRequest()
        #expect(body["model"] as? String == "gemma-test")
        let format = try #require(body["response_format"] as? [String: Any])
        #expect(format["type"] as? String == "json_schema")
        let jsonSchema = try #require(format["json_schema"] as? [String: Any])
        #expect(jsonSchema["name"] as? String == "parent_command")
        let schema = try #require(jsonSchema["schema"] as? [String: Any])
        let properties = try #require(schema["properties"] as? [String: Any])
        #expect(Set(properties.keys).isSuperset(of: ["action", "durationSeconds", "apps", "categories", "message", "until", "condition", "schedule"]))
        let messages = try #require(body["messages"] as? [[String: Any]])
        let system = try #require(messages.first?["content"] as? String)
        #expect(system.contains("durationSeconds") && system.contains("block_app") && system.contains("2026-05-15 13:30"))
        #expect(messages.last?["content"] as? String == unclear)
    }

    @Test("an answer in a code fence, and a clarification, are used")
    func fencedAndClarify() async throws {
        defer { server.stop() }
        let fenced = await interpreter("fenced").interpretReportingSource(neutral, now: Fixtures.now, timeZone: Fixtures.newYork)
        #expect(fenced.source == .model)
        #expect(fenced.interpretation.command?.durationSeconds == 4321)
        let clarify = await interpreter("clarify").interpretReportingSource(unclear, now: Fixtures.now, timeZone: Fixtures.newYork)
        #expect(clarify.interpretation == .clarify(question: "Which child?"))
    }

    @Test("on every failure the rules' question stands", arguments: ["invalid-json", "schema-violation", "bad-envelope", "error500", "no-such-mode"])
    func fallsBack(mode: String) async throws {
        defer { server.stop() }
        let outcome = await interpreter(mode).interpretReportingSource(unclear, now: Fixtures.now, timeZone: Fixtures.newYork)
        #expect(outcome.interpretation == rules(unclear))
        guard case .modelFailed(let reason) = outcome.source else { Issue.record("\(outcome.source)"); return }
        if mode == "error500" { #expect(reason == .httpStatus(500)) }
        if mode == "schema-violation" {
            guard case .invalidCommand = reason else { Issue.record("\(reason)"); return }
        }
    }

    @Test("a slow server is abandoned at the timeout")
    func slow() async throws {
        defer { server.stop() }
        let started = Date()
        let outcome = await interpreter("slow", timeout: 0.5).interpretReportingSource(unclear, now: Fixtures.now, timeZone: Fixtures.newYork)
        let elapsed = Date().timeIntervalSince(started)
        #expect(outcome.source == .modelFailed(.timeout))
        #expect(outcome.interpretation == rules(unclear))
        #expect(elapsed >= 0.4 && elapsed < 60, "took \(elapsed) s")
    }

    @Test("no server at all: the rules' question stands")
    func unreachable() async throws {
        server.stop()
        let outcome = await interpreter("valid").interpretReportingSource(unclear, now: Fixtures.now, timeZone: Fixtures.newYork)
        #expect(outcome.interpretation == rules(unclear))
        guard case .modelFailed = outcome.source else { Issue.record("\(outcome.source)"); return }
    }

    @Test("answers are validated against now: an until in the past is refused")
    func validatesAgainstNow() throws {
        func envelope(_ content: String) -> Data {
            try! JSONSerialization.data(withJSONObject: ["choices": [["message": ["role": "assistant", "content": content]]]])
        }
        let past = LLMInterpreter.parseAnswer(envelope(#"{"action": "shutdown", "until": "2026-05-15T10:00:00Z"}"#), now: Fixtures.now)
        guard case .failure(.invalidCommand) = past else { Issue.record("\(past)"); return }
        let extra = LLMInterpreter.parseAnswer(envelope(#"{"action": "shutdown", "reason": "x"}"#), now: Fixtures.now)
        guard case .failure(.invalidCommand) = extra else { Issue.record("\(extra)"); return }
        let ok = LLMInterpreter.parseAnswer(envelope(#"{"action": "block_app", "apps": ["YouTube"], "child": "him"}"#), now: Fixtures.now)
        #expect(try ok.get() == .command(try ParentCommand(action: .blockApp, apps: ["youtube"]), child: "him"))
    }

    @Test("configuration from the environment")
    func environment() throws {
        #expect(try LLMInterpreter.Configuration(settings: SettingsReader(environment: [:])) == nil)
        #expect(throws: ConfigurationError.self) {
            try LLMInterpreter.Configuration(settings: SettingsReader(environment: ["GUARDIAN_LLM_URL": "http://x", "GUARDIAN_LLM_TIMEOUT": "soon"]))
        }
        let configuration = try LLMInterpreter.Configuration(
            settings: SettingsReader(environment: ["GUARDIAN_LLM_URL": "http://127.0.0.1:8080", "GUARDIAN_LLM_TIMEOUT": "2.5"]))
        #expect(configuration?.timeout == 2.5)
        #expect(configuration?.endpoint.absoluteString == "http://127.0.0.1:8080/v1/chat/completions")
    }
}
