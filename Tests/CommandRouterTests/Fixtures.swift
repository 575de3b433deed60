import Foundation
@testable import GuardianCommandRouter

/// Files under Tests/CommandRouterTests/Fixtures, and the clock the corpus is written for.
enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func url(_ name: String) -> URL { directory.appendingPathComponent(name) }

    /// The tuning corpus: the phrasings the built-in interpreter was built and tuned on.
    static func corpus() throws -> InterpreterCorpus { try InterpreterCorpus(contentsOf: url("corpus.json")) }

    /// The held-out set of issue #30, written before the interpreter changed for it, never tuned on.
    static func heldOut() throws -> InterpreterCorpus { try InterpreterCorpus(contentsOf: url("held-out-issue30.json")) }

    /// Every set of phrasings, by name.
    static func allSets() throws -> [(name: String, corpus: InterpreterCorpus)] {
        [("tuning corpus", try corpus()), ("held-out (issue #30)", try heldOut())]
    }

    /// Friday 2026-05-15 13:30 in New York (EDT, UTC-4), the corpus's clock.
    static let now = RFC3339.parse("2026-05-15T17:30:00Z")!
    static let newYork = TimeZone(identifier: "America/New_York")!

    /// `local` ("2026-05-15 21:00") on `zone`'s clock.
    static func date(_ local: String, _ zone: TimeZone = newYork) -> Date {
        let parts = local.split(whereSeparator: { $0 == "-" || $0 == " " || $0 == ":" }).map { Int($0)! }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: parts[3], minute: parts[4]))!
    }
}

extension Interpretation {
    /// The command as sorted JSON, for readable expectations.
    var json: String {
        guard let command else { return "clarify" }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try! encoder.encode(command), as: UTF8.self)
    }

    /// The question asked back, if any.
    var question: String? {
        if case .clarify(let question) = self { return question }
        return nil
    }
}
