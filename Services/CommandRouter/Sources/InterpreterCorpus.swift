import Foundation

/// Parent phrasings with the interpretation each should get, on a fixed clock, and a way to score
/// any interpreter on them (tests, the benchmark, or trying a model endpoint).
///
/// JSON: `{now, timeZone, cases: [{text, command?, child?, clarify?, now?, timeZone?}]}`; a case
/// expects `command` for `child` (absent: none), or with `clarify: true` any question.
public struct InterpreterCorpus: Decodable, Sendable {
    public struct Case: Decodable, Sendable {
        public var text: String
        public var command: ParentCommand?
        public var child: String?
        public var clarify: Bool
        public var now: Date?
        public var timeZone: TimeZone?

        enum CodingKeys: String, CodingKey { case text, command, child, clarify, now, timeZone }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            text = try c.decode(String.self, forKey: .text)
            command = try c.decodeIfPresent(ParentCommand.self, forKey: .command)
            child = try c.decodeIfPresent(String.self, forKey: .child)
            clarify = try c.decodeIfPresent(Bool.self, forKey: .clarify) ?? false
            now = try InterpreterCorpus.date(c, .now)
            timeZone = try InterpreterCorpus.zone(c, .timeZone)
            guard clarify != (command != nil) else {
                throw DecodingError.dataCorruptedError(forKey: .command, in: c, debugDescription: "a case expects either command or clarify")
            }
        }

        /// Whether `interpretation` is what this case expects (any question, for a clarify case).
        public func isMatched(by interpretation: Interpretation) -> Bool {
            switch interpretation {
            case .clarify: return clarify
            case .command(let got, let gotChild): return !clarify && got == command && gotChild == child
            }
        }
    }

    public struct Score: Sendable {
        public var total: Int
        public var failures: [(text: String, expected: String, got: Interpretation)]
        public var correct: Int { total - failures.count }
        public var accuracy: Double { total == 0 ? 0 : Double(correct) / Double(total) }
    }

    public var now: Date
    public var timeZone: TimeZone
    public var cases: [Case]

    enum CodingKeys: String, CodingKey { case now, timeZone, cases }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        guard let now = try Self.date(c, .now), let zone = try Self.zone(c, .timeZone) else {
            throw DecodingError.dataCorruptedError(forKey: .now, in: c, debugDescription: "now and timeZone are required")
        }
        self.now = now
        timeZone = zone
        cases = try c.decode([Case].self, forKey: .cases)
    }

    public init(contentsOf url: URL) throws {
        self = try JSONDecoder().decode(Self.self, from: Data(contentsOf: url))
    }

    public func score(_ interpret: (String, Date, TimeZone) -> Interpretation) -> Score {
        var failures: [(String, String, Interpretation)] = []
        for item in cases {
            let got = interpret(item.text, item.now ?? now, item.timeZone ?? timeZone)
            if !item.isMatched(by: got) { failures.append((item.text, Self.describe(item), got)) }
        }
        return Score(total: cases.count, failures: failures)
    }

    public func score(_ interpreter: some Interpreter) async -> Score {
        var failures: [(String, String, Interpretation)] = []
        for item in cases {
            let got = await interpreter.interpret(item.text, now: item.now ?? now, timeZone: item.timeZone ?? timeZone)
            if !item.isMatched(by: got) { failures.append((item.text, Self.describe(item), got)) }
        }
        return Score(total: cases.count, failures: failures)
    }

    static func describe(_ item: Case) -> String {
        guard let command = item.command else { return "clarify" }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = (try? encoder.encode(command)).map { String(decoding: $0, as: UTF8.self) } ?? "?"
        return json + (item.child.map { " child: \($0)" } ?? "")
    }

    fileprivate static func date<K: CodingKey>(_ c: KeyedDecodingContainer<K>, _ key: K) throws -> Date? {
        guard let text = try c.decodeIfPresent(String.self, forKey: key) else { return nil }
        guard let date = RFC3339.parse(text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "not an RFC 3339 time")
        }
        return date
    }

    fileprivate static func zone<K: CodingKey>(_ c: KeyedDecodingContainer<K>, _ key: K) throws -> TimeZone? {
        guard let name = try c.decodeIfPresent(String.self, forKey: key) else { return nil }
        guard let zone = TimeZone(identifier: name) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "unknown time zone \(name)")
        }
        return zone
    }
}
