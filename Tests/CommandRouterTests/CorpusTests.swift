import Foundation
@testable import GuardianCommandRouter
import Testing

@Suite("Corpus")
struct CorpusTests {
    @Test("the built-in interpreter reads at least 95% of the corpus as written")
    func builtInAccuracy() throws {
        let corpus = try Fixtures.corpus()
        let interpreter = BuiltInInterpreter()
        let score = corpus.score { interpreter.interpret($0, now: $1, timeZone: $2) }
        for failure in score.failures {
            print("corpus miss: \"\(failure.text)\"\n  expected \(failure.expected)\n  got      \(failure.got)")
        }
        print(String(format: "corpus accuracy: %d/%d = %.1f%%", score.correct, score.total, score.accuracy * 100))
        #expect(score.total >= 150)
        #expect(score.accuracy >= 0.95)
    }

    @Test("the built-in interpreter reads at least 95% of the held-out set, written before the changes for it")
    func heldOutAccuracy() throws {
        let heldOut = try Fixtures.heldOut()
        let interpreter = BuiltInInterpreter()
        let score = heldOut.score { interpreter.interpret($0, now: $1, timeZone: $2) }
        for failure in score.failures {
            print("held-out miss: \"\(failure.text)\"\n  expected \(failure.expected)\n  got      \(failure.got)")
        }
        print(String(format: "held-out accuracy: %d/%d = %.1f%%", score.correct, score.total, score.accuracy * 100))
        #expect(score.total >= 40)
        #expect(score.accuracy >= 0.95)
    }

    @Test("over every set, words that lift a block never give a restriction, and a restriction asked for never gives an allow")
    func reversalsNeverRestrict() throws {
        let interpreter = BuiltInInterpreter()
        var reversals = 0
        for (name, corpus) in try Fixtures.allSets() {
            for item in corpus.cases {
                let got = interpreter.interpret(item.text, now: item.now ?? corpus.now, timeZone: item.timeZone ?? corpus.timeZone)
                if ReversalWords.contains(item.text) {
                    reversals += 1
                    #expect(!(item.command.map(ReversalWords.restricts) ?? false), "\(name): the set itself expects a restriction for \"\(item.text)\"")
                    #expect(!(got.command.map(ReversalWords.restricts) ?? false), "\(name): \"\(item.text)\" lifts a block, got \(got.json)")
                } else if let expected = item.command, ReversalWords.restricts(expected) {
                    #expect(got.command?.action != .allow, "\(name): \"\(item.text)\" asks for a restriction, got \(got.json)")
                }
            }
        }
        print("phrasings with a reversal word, over every set: \(reversals)")
        #expect(reversals >= 40)
    }

    @Test("the corpus holds the brief's and the contract's phrasings verbatim")
    func holdsTheBriefsPhrasings() throws {
        let corpus = try Fixtures.corpus()
        let byText = Dictionary(corpus.cases.map { ($0.text, $0) }, uniquingKeysWith: { a, _ in a })
        for text in ["Block all social media apps for 2 hours", "Give him 15 more minutes then bedtime mode",
                     "No gaming until after 3pm today", "Send a warning that dinner is in 10 minutes",
                     "Remove all restrictions for the weekend"] {
            #expect(byText[text]?.command != nil, "\(text)")
        }
        #expect(byText["Block all games for 2 hours"]?.command
                == (try ParentCommand(action: .shutdown, durationSeconds: 7200, categories: [.games])))
        #expect(byText["Give him 10 more minutes"]?.command == (try ParentCommand(action: .extend, durationSeconds: 600)))
        #expect(byText["No more YouTube until homework is done"]?.command
                == (try ParentCommand(action: .blockApp, apps: ["youtube"], condition: "homework")))
    }

    @Test("school nights are Sunday to Thursday nights: an overnight window repeating on weekdays, or a question back")
    func schoolNights() throws {
        let corpus = try Fixtures.corpus()
        let schoolNights = corpus.cases.filter { $0.text.lowercased().replacingOccurrences(of: "-", with: " ").contains("school night") || $0.text.contains("Sunday to Thursday") }
        #expect(schoolNights.count >= 10)
        for item in schoolNights {
            if let schedule = item.command?.schedule {
                #expect(schedule.isOvernight && schedule.repeat == .weekdays, "\(item.text)")
            } else {
                #expect(item.clarify, "\(item.text)")
            }
        }
    }

    @Test("more time phrased as allowing or letting is an extension, not lifting a restriction")
    func allowingMoreTime() throws {
        let corpus = try Fixtures.corpus()
        let moreTime = corpus.cases.filter { item in
            let text = item.text.lowercased()
            return (text.hasPrefix("allow") || text.contains("let ")) && (text.contains(" more ") || text.contains("extra") || text.contains("longer"))
        }
        #expect(moreTime.count >= 6)
        #expect(moreTime.allSatisfy { $0.command?.action == .extend })
    }

    @Test("every case is a valid command on its own clock")
    func casesAreValid() throws {
        let corpus = try Fixtures.corpus()
        for item in corpus.cases {
            try item.command?.validate(now: item.now ?? corpus.now)
        }
        #expect(Set(corpus.cases.map(\.text)).count == corpus.cases.count)
    }
}

/// Words that lift or cancel a restriction, found by patterns of the test's own (not the interpreter's
/// lexicon): un- verbs, a lifting verb with a block, ban, limit or restriction after it, and a
/// negated blocking verb ("don't block", "no need to block", "no longer … blocked", "stop blocking").
enum ReversalWords {
    private static let patterns: [NSRegularExpression] = [
        #"\bun-?(block|ban|lock|restrict|pause|mute|freeze|silence|ground)"#,
        #"\b(cancel|undo|lift|end|remove|drop|clear|take|reverse|revoke|scrap)\b(\W+\w+){0,4}?\W+(block|ban|restriction|limit|lock|grounding|shutdown|rule)"#,
        #"\b(undo|lift)\b"#,
        #"\b(don'?t|do not|doesn'?t|does not|never|no need|no longer|stop|no more|not)\b(\W+\w+){0,3}?\W+(block|ban|restrict|lock|shut|turn\w* off|switch\w* off|disabl|ground|paus|mut|kill|cut|freez|silenc)"#,
    ].map { try! NSRegularExpression(pattern: $0, options: [.caseInsensitive]) }

    static func contains(_ text: String) -> Bool {
        let text = text.replacingOccurrences(of: "\u{2019}", with: "'")
        let range = NSRange(text.startIndex..., in: text)
        return patterns.contains { $0.firstMatch(in: text, range: range) != nil }
    }

    /// Blocks an app or category, turns the device off, or sets a schedule.
    static func restricts(_ command: ParentCommand) -> Bool {
        [.shutdown, .blockApp, .schedule].contains(command.action)
    }
}
