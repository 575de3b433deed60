import Foundation
import GuardianShared
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The ``BuiltInInterpreter`` first, and a language model behind an OpenAI-compatible endpoint
/// (`POST {baseURL}/v1/chat/completions`; llama.cpp's `llama-server` with a Gemma GGUF, or any
/// other) only for what the rules would answer with a question. The model is asked for JSON
/// matching the command schema (`response_format` `json_schema`, and the schema described in the
/// prompt); its answer is validated with the same rules as every ``ParentCommand`` and passes the
/// same ``SafetyNet``. On any error, timeout or invalid answer the rules' question stands.
public struct LLMInterpreter: Interpreter {
    public struct Configuration: Sendable {
        /// The server root, without `/v1`: `http://127.0.0.1:8080`.
        public var baseURL: URL
        public var model: String
        /// Sent as `Authorization: Bearer …` when set.
        public var apiKey: String?
        /// The whole request, connection to last byte, in seconds.
        public var timeout: TimeInterval
        public var maxTokens: Int
        public var temperature: Double

        public init(baseURL: URL, model: String = "gemma-3n-e2b", apiKey: String? = nil, timeout: TimeInterval = 10,
                    maxTokens: Int = 256, temperature: Double = 0) {
            self.baseURL = baseURL
            self.model = model
            self.apiKey = apiKey
            self.timeout = timeout
            self.maxTokens = maxTokens
            self.temperature = temperature
        }

        /// `GUARDIAN_LLM_URL` (unset: no model), `GUARDIAN_LLM_MODEL`, `GUARDIAN_LLM_API_KEY`,
        /// `GUARDIAN_LLM_TIMEOUT` (seconds).
        public init?(settings: SettingsReader) throws(ConfigurationError) {
            guard let text = settings.text("GUARDIAN_LLM_URL") else { return nil }
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil else {
                throw ConfigurationError(key: "GUARDIAN_LLM_URL", reason: "must be an http:// or https:// URL, got '\(text)'")
            }
            self.init(baseURL: url, apiKey: settings.text("GUARDIAN_LLM_API_KEY"))
            if let model = settings.text("GUARDIAN_LLM_MODEL") { self.model = model }
            if let timeout = try settings.number("GUARDIAN_LLM_TIMEOUT", in: 0.001...3600) { self.timeout = timeout }
        }

        var endpoint: URL { baseURL.appendingPathComponent("v1").appendingPathComponent("chat").appendingPathComponent("completions") }
    }

    /// Where an interpretation came from.
    public enum Source: Sendable, Equatable {
        /// The rules understood the words; the model was not asked.
        case rules
        /// The rules would have asked; the model's answer was used.
        case model
        /// The model's answer contradicted the words: the safety net's question instead.
        case modelOverruled
        /// The model gave no usable answer: the rules' question stands.
        case modelFailed(LLMInterpreterError)
    }

    /// An interpretation and where it came from.
    public struct Outcome: Sendable, Equatable {
        public var interpretation: Interpretation
        public var source: Source
    }

    public let configuration: Configuration
    public let rules: BuiltInInterpreter
    private let transport: Transport

    public init(configuration: Configuration, rules: BuiltInInterpreter = BuiltInInterpreter()) {
        self.configuration = configuration
        self.rules = rules
        transport = Transport(timeout: configuration.timeout)
    }

    public func interpret(_ text: String, now: Date, timeZone: TimeZone) async -> Interpretation {
        await interpretReportingSource(text, now: now, timeZone: timeZone).interpretation
    }

    /// Like ``interpret(_:now:timeZone:)``, saying which interpreter answered.
    public func interpretReportingSource(_ text: String, now: Date, timeZone: TimeZone) async -> Outcome {
        let question = rules.interpret(text, now: now, timeZone: timeZone)
        guard question.isClarify else { return Outcome(interpretation: question, source: .rules) }
        switch await modelInterpretation(text, now: now, timeZone: timeZone) {
        case .success(let answer):
            let checked = rules.checked(answer, text: text)
            return Outcome(interpretation: checked, source: checked == answer ? .model : .modelOverruled)
        case .failure(let reason):
            return Outcome(interpretation: question, source: .modelFailed(reason))
        }
    }

    /// The model's validated interpretation, or why there is none.
    public func modelInterpretation(_ text: String, now: Date, timeZone: TimeZone) async -> Result<Interpretation, LLMInterpreterError> {
        var request = URLRequest(url: configuration.endpoint, timeoutInterval: Transport.backstop(configuration.timeout))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let key = configuration.apiKey { request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization") }
        do {
            request.httpBody = try requestBody(text: text, now: now, timeZone: timeZone)
        } catch {
            return .failure(.malformedResponse("cannot encode the request: \(error)"))
        }
        let data: Data
        do {
            let (body, status) = try await transport.send(request)
            guard (200..<300).contains(status) else { return .failure(.httpStatus(status)) }
            data = body
        } catch let error as LLMInterpreterError {
            return .failure(error)
        } catch {
            return .failure(.transport(String(describing: error)))
        }
        return Self.parseAnswer(data, now: now)
    }

    /// Reads a chat-completions response: `choices[0].message.content` must be one JSON object (a
    /// Markdown code fence around it is tolerated) that is a valid command or a clarification.
    static func parseAnswer(_ data: Data, now: Date) -> Result<Interpretation, LLMInterpreterError> {
        guard let envelope = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let choices = envelope["choices"] as? [[String: Any]], let message = choices.first?["message"] as? [String: Any],
              let content = message["content"] as? String
        else { return .failure(.malformedResponse("no choices[0].message.content")) }
        var json = content.trimmingCharacters(in: .whitespacesAndNewlines)
        if json.hasPrefix("```") {
            json = json.drop { $0 != "\n" }.trimmingCharacters(in: .whitespacesAndNewlines)
            if json.hasSuffix("```") { json = String(json.dropLast(3)).trimmingCharacters(in: .whitespacesAndNewlines) }
        }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any] else {
            return .failure(.malformedResponse("the answer is not a JSON object"))
        }
        let known: Set<String> = ["action", "durationSeconds", "apps", "categories", "message", "until", "condition",
                                  "schedule", "child", "question"]
        if let extra = object.keys.first(where: { !known.contains($0) }) {
            return .failure(.invalidCommand("unknown field \"\(extra)\""))
        }
        if object["action"] as? String == "clarify" {
            guard let question = (object["question"] as? String)?.trimmingCharacters(in: .whitespacesAndNewlines),
                  !question.isEmpty, question.count <= 300
            else { return .failure(.invalidCommand("clarify without a question")) }
            return .success(.clarify(question: question))
        }
        var child: String?
        if let value = object["child"], !(value is NSNull) {
            guard let name = (value as? String)?.trimmingCharacters(in: .whitespacesAndNewlines), name.count <= 64 else {
                return .failure(.invalidCommand("child must be a short string"))
            }
            child = name.isEmpty ? nil : name
        }
        var fields = object
        fields["child"] = nil
        fields["question"] = nil
        do {
            let command = try JSONDecoder().decode(ParentCommand.self, from: JSONSerialization.data(withJSONObject: fields))
            try command.validate(now: now)
            return .success(.command(command, child: child))
        } catch {
            return .failure(.invalidCommand(String(describing: error)))
        }
    }
}

/// Why the model's answer was not used.
public enum LLMInterpreterError: Error, Sendable, Equatable {
    case timeout
    case transport(String)
    case httpStatus(Int)
    case malformedResponse(String)
    case invalidCommand(String)
}

/// One URLSession per interpreter, with a hard deadline on every request.
private final class Transport: @unchecked Sendable {
    private let session: URLSession
    private let timeout: TimeInterval

    init(timeout: TimeInterval) {
        self.timeout = timeout
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = Self.backstop(timeout)
        configuration.timeoutIntervalForResource = Self.backstop(timeout)
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration)
    }

    deinit { session.invalidateAndCancel() }

    /// URLSession's own limit, behind the precise deadline of ``send(_:)``: on Linux it counts in
    /// whole seconds (0.5 s would time out at once).
    static func backstop(_ timeout: TimeInterval) -> TimeInterval { max(1, timeout.rounded(.up)) + 1 }

    /// The body and status code, or ``LLMInterpreterError/timeout`` once `timeout` has passed.
    func send(_ request: URLRequest) async throws -> (Data, Int) {
        let pending = Pending()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<(Data, Int), any Error>) in
                let task = session.dataTask(with: request) { data, response, error in
                    if let error {
                        let timedOut = (error as? URLError)?.code == .timedOut
                        pending.finish(.failure(timedOut ? LLMInterpreterError.timeout : LLMInterpreterError.transport(error.localizedDescription)))
                    } else {
                        pending.finish(.success((data ?? Data(), (response as? HTTPURLResponse)?.statusCode ?? 0)))
                    }
                }
                pending.start(continuation, task: task)
                task.resume()
                DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
                    pending.finish(.failure(LLMInterpreterError.timeout))
                }
            }
        } onCancel: {
            pending.finish(.failure(CancellationError()))
        }
    }

    /// Resumes its continuation once, with whichever of answer, deadline or cancellation comes first.
    private final class Pending: @unchecked Sendable {
        private let lock = NSLock()
        private var continuation: CheckedContinuation<(Data, Int), any Error>?
        private var task: URLSessionDataTask?
        private var early: Result<(Data, Int), any Error>?
        private var done = false

        func start(_ continuation: CheckedContinuation<(Data, Int), any Error>, task: URLSessionDataTask) {
            lock.lock()
            if let early {
                done = true
                lock.unlock()
                task.cancel()
                continuation.resume(with: early)
                return
            }
            self.continuation = continuation
            self.task = task
            lock.unlock()
        }

        func finish(_ result: Result<(Data, Int), any Error>) {
            lock.lock()
            guard !done else { return lock.unlock() }
            guard let continuation else {
                if early == nil { early = result }
                return lock.unlock()
            }
            done = true
            self.continuation = nil
            let task = self.task
            self.task = nil
            lock.unlock()
            if case .failure = result { task?.cancel() }
            continuation.resume(with: result)
        }
    }
}
