import Foundation

/// The default interpreter: a tokenizer, a lexicon with typo correction, and a small grammar that
/// fills the command's slots, with no model behind it. It answers in microseconds and asks
/// (``Interpretation/clarify(question:)``) rather than guess whenever a word is left unexplained.
///
/// Readings it settles (see `docs/command-router-interpreter.md`):
/// - "till 8pm" is the next 8 pm; one that passed under 6 hours ago is a question. "till 8" is the
///   sooner of 8 am and 8 pm. "until tomorrow"/"Monday" end at 07:00 that day; "tonight" at the next
///   07:00; "today"/"the rest of the day" at midnight; "for the weekend" (Friday to Sunday) at Monday 00:00.
/// - "No X"/"block X": `block_app` when X names apps, otherwise `shutdown` (with `categories` if any).
/// - Negation: "don't block X" allows X; "don't let/allow X" blocks X; "don't unblock X" and
///   negated extensions, warnings and schedules are questions.
/// - Reversals: "cancel/undo/lift/remove the block on X", "take X off the block list", "no need to
///   block X", "X no longer needs to be blocked" allow X. Every answer then passes the ``SafetyNet``.
/// - A device is where the time is spent: "20 more minutes on the Xbox" extends.
/// - "school nights"/"weeknights" repeat `weekdays`, only for an overnight window (Sun-Thu nights);
///   named days are the days a window starts on ("Friday and Saturday nights" → `weekends`).
/// - "No screens after 8 tonight": the whole device off from an evening time is a bedtime.
/// - "Allow him 15 more minutes", "let him play 15 minutes longer": more time extends.
/// - "15 more minutes then bedtime": `extend` 900 s with a one-off bedtime `schedule` starting when
///   the extension ends.
public struct BuiltInInterpreter: Interpreter {
    /// Where a bedtime with no end time ends.
    public static let bedtimeEnd = (hour: 7, minute: 0)
    /// Longer messages are not read.
    public static let maxTextLength = 1000

    let lexicon: Lexicon

    public init() { lexicon = .standard }

    /// An interpreter that knows the apps of `catalog` instead of the standard ones.
    public init(catalog: AppCatalog) { lexicon = Lexicon(catalog: catalog) }

    public func interpret(_ text: String, now: Date, timeZone: TimeZone) -> Interpretation {
        guard text.utf8.count <= Self.maxTextLength * 4, text.count <= Self.maxTextLength else {
            return .clarify(question: "That message is too long for me. Could you say it in one short sentence?")
        }
        var tokens = Self.tokenize(text)
        let names = nameSlots(&tokens)
        let lexes = lexicon.lex(tokens, names: names)
        let interpretation = Utterance(lexes: lexes, tokens: tokens, text: text, now: now, timeZone: timeZone).interpret()
        return SafetyNet.check(interpretation, reading: SafetyNet.read(lexes, tokens: tokens))
    }

    /// `interpretation` (another interpreter's, of `text`) through the same ``SafetyNet``.
    func checked(_ interpretation: Interpretation, text: String) -> Interpretation {
        guard text.count <= Self.maxTextLength else { return interpretation.isClarify ? interpretation : .clarify(question: "That message is too long for me. Could you say it in one short sentence?") }
        var tokens = Self.tokenize(text)
        let names = nameSlots(&tokens)
        return SafetyNet.check(interpretation, reading: SafetyNet.read(lexicon.lex(tokens, names: names), tokens: tokens))
    }

    /// Marks unknown words in a child's-name position ("give Sam", "for Sam", "Sam's", "Sam can",
    /// ", Sam" at the end) as names; corrects other unknown words to the nearest lexicon word.
    func nameSlots(_ tokens: inout [Token]) -> Set<Int> {
        var names = Set<Int>()
        let before: Set<String> = ["give", "tell", "warn", "remind", "let", "send", "grant", "stop", "for", "to", "from",
                                   "extend", "text", "notify", "ping", "message", "ground", "allow", "gimme", "sure", "ensure"]
        let after: Set<String> = ["can", "gets", "get", "has", "may", "should", "is", "will", "needs", "could", "must",
                                  "cannot", "would", ":", ",", "'s", "gets", "deserves"]
        let firstWord = tokens.firstIndex { !$0.isPunctuation && lexicon.words[$0.word] != .key(.filler) }
        let lastWord = tokens.lastIndex { !$0.isPunctuation }
        for i in tokens.indices where !tokens[i].isPunctuation && !lexicon.isKnown(tokens[i].word) {
            let word = tokens[i].word
            guard word.first?.isLetter == true else { continue }
            let previous = i > 0 ? tokens[i - 1].word : ""
            let next = i + 1 < tokens.count ? tokens[i + 1].word : ""
            let isName = next == "'s"
                || (before.contains(previous) && !(previous == "to" && i + 1 < tokens.count && !tokens[i + 1].isPunctuation && next != "that"))
                || (previous == "and" && names.contains(i - 2))
                || (i == firstWord && after.contains(next))
                || (previous == "," && i == lastWord)
            if isName {
                names.insert(i)
            } else if !(tokens[i].isCapitalized && i != firstWord), let corrected = lexicon.correction(for: word) {
                tokens[i].word = corrected
            }
        }
        return names
    }
}

/// One message on its way through the grammar: politeness and addressee are peeled off, questions
/// and warnings recognised, "then"/"and" split into clauses, and the clause read as a command.
struct Utterance {
    let lexes: [Lex]
    let tokens: [Token]
    let text: String
    let now: Date
    let timeZone: TimeZone

    private func key(_ i: Int, _ hi: Int) -> Key? { i >= 0 && i < hi ? lexes[i].key : nil }
    private func word(_ i: Int) -> String { tokens[lexes[i].first].word }
    private func isPunctuation(_ i: Int) -> Bool {
        if case .punctuation = lexes[i].sense { return true }
        return false
    }

    private static let predicates: Set<Key> = [
        .block, .shutdown, .lock, .pause, .shut, .turn, .cut, .take, .stop, .remove, .allow, .unblock, .lift, .end, .undo,
        .letVerb, .give, .add, .grant, .extend, .warn, .tell, .remind, .send, .setVerb, .no,
    ]

    func interpret() -> Interpretation {
        var lo = 0
        var hi = lexes.count
        var request = false
        while lo < hi {
            let k = key(lo, hi)
            if k == .filler || isPunctuation(lo) {
                lo += 1
            } else if k == .modal, key(lo + 1, hi) == .speaker, ["you", "u", "ya"].contains(word(lo + 1)) {
                lo += 2
                request = true
            } else if k == .article, key(lo + 1, hi) == .be, key(lo + 2, hi) == .filler {
                lo += 3
            } else if k == .speaker, key(lo + 1, hi) == .want, key(lo + 2, hi) == .speaker, key(lo + 3, hi) == .to {
                lo += 4
                request = true
            } else if k == .speaker, key(lo + 1, hi) == .modal, key(lo + 2, hi) == .filler, key(lo + 3, hi) == .speaker,
                      key(lo + 4, hi) == .to {
                lo += 5
                request = true
            } else if k == .letVerb, key(lo + 1, hi) == .speaker, word(lo + 1) == "us" {
                lo += 2
            } else if k == .timeUp, lo + 1 < hi, isPunctuation(lo + 1) {
                lo += 2
            } else {
                break
            }
        }
        let endsWithQuestionMark = lexes[lo..<hi].last.map { $0.sense == .punctuation("?") } ?? false
        while hi > lo, isPunctuation(hi - 1) { hi -= 1 }
        let messageEnd = hi
        while hi > lo, key(hi - 1, hi) == .filler || isPunctuation(hi - 1)
            || (key(hi - 1, hi) == .speaker && word(hi - 1) == "you" && hi - 2 >= lo && word(hi - 2) == "thank") {
            hi -= 1
        }
        guard lo < hi else {
            return .clarify(question: "What would you like me to do? For example: “Block games for 2 hours” or “Give Sam 10 more minutes”.")
        }
        if key(lo, hi) == .question || key(lo, hi) == .be || key(lo, hi) == .modal
            || (key(lo, hi) == .aux && [.speaker, .him, .her, .kids].contains(key(lo + 1, hi)))
            || (key(lo, hi) == .aux && lo + 1 < hi && { if case .name = lexes[lo + 1].sense { return true }; return false }())
            || lexes[lo..<hi].contains(where: { $0.sense == .punctuation("?") })
            || (endsWithQuestionMark && !request) {
            return .clarify(question: "I can block or allow apps, give more time, send a warning or set a schedule, but I can't answer questions. What should I do?")
        }

        var addressee: String?
        if case .name = lexes[lo].sense, lo + 1 < hi, lexes[lo + 1].sense == .punctuation(":") || lexes[lo + 1].sense == .punctuation(",") {
            addressee = writtenName(lo)
            lo += 2
        }
        if hi - lo >= 3, case .name = lexes[hi - 1].sense, lexes[hi - 2].sense == .punctuation(",") {
            addressee = addressee ?? writtenName(hi - 1)
            hi -= 2
        }

        if let outcome = WarningGrammar(lexes: lexes, tokens: tokens, text: text, lo: lo, hi: max(hi, messageEnd)).parse() {
            switch outcome {
            case .clarify(let question):
                return .clarify(question: question)
            case .warning(let message, let child):
                var name: String?
                switch child {
                case .name(let n)?: name = n
                case .pronoun(let p)?: name = addressee ?? p
                case .plural?, nil: name = addressee
                }
                do {
                    return .command(try ParentCommand(action: .warning, message: message), child: name)
                } catch {
                    return .clarify(question: "I couldn't send that warning (\(error)). Could you rephrase it?")
                }
            }
        }

        if let then = (lo..<hi).first(where: { key($0, hi) == .then }) {
            return chained(lo..<then, then + 1..<hi, addressee: addressee)
        }
        if twoPredicates(lo..<hi) {
            return .clarify(question: "I can do one thing at a time. Which should I do first?")
        }
        return clause(lo..<hi, addressee: addressee)
    }

    private func writtenName(_ i: Int) -> String {
        let token = tokens[lexes[i].first]
        return String(text[token.range].prefix(token.word.count))
    }

    /// A connector ("and", "but", ",") followed by a second predicate verb after a first one.
    private func twoPredicates(_ range: Range<Int>) -> Bool {
        var sawPredicate = false
        for i in range {
            if let k = lexes[i].key, Self.predicates.contains(k) { sawPredicate = true }
            let connector = key(i, range.upperBound) == .and || key(i, range.upperBound) == .but
                || lexes[i].sense == .punctuation(",") || lexes[i].sense == .punctuation(";")
            guard connector, sawPredicate else { continue }
            var j = i + 1
            while j < range.upperBound, key(j, range.upperBound) == .filler || key(j, range.upperBound) == .and { j += 1 }
            if j < range.upperBound, let k = lexes[j].key, Self.predicates.contains(k), k != .no { return true }
        }
        return false
    }

    private func parsed(_ range: Range<Int>) -> ClauseParser {
        var parser = ClauseParser(lexes: lexes, tokens: tokens, text: text, range: range)
        parser.scan()
        return parser
    }

    private func clause(_ range: Range<Int>, addressee: String?) -> Interpretation {
        let parser = parsed(range)
        let unexplained = parser.unexplained.map { parser.original($0..<$0 + 1) }
        return CommandBuilder(slots: parser.slots, unexplained: unexplained, now: now, timeZone: timeZone, addressee: addressee).build()
    }

    /// "N more minutes then bedtime": the extension, then a one-off bedtime from when it ends.
    private func chained(_ first: Range<Int>, _ second: Range<Int>, addressee: String?) -> Interpretation {
        var left = first
        while left.upperBound > left.lowerBound, key(left.upperBound - 1, left.upperBound) == .and || isPunctuation(left.upperBound - 1) {
            left = left.lowerBound..<(left.upperBound - 1)
        }
        var bedtime = false
        for i in second {
            switch lexes[i].sense {
            case .key(.scheduleKind(.bedtime)): bedtime = true
            case .key(.mode), .key(.article), .key(.filler), .key(.to), .key(.inside), .key(.and), .punctuation: break
            default: return .clarify(question: "I can do one thing at a time. Which should I do first?")
            }
        }
        guard bedtime else { return .clarify(question: "I can do one thing at a time. Which should I do first?") }
        let first = clause(left, addressee: addressee)
        guard case .command(var command, let child) = first, command.action == .extend else {
            if case .clarify = first { return first }
            return .clarify(question: "I can do one thing at a time. Which should I do first?")
        }
        let ends = command.durationSeconds.map { now.addingTimeInterval(Double($0)) } ?? command.untilDate ?? now
        let start = TimeResolver.localTime(of: ends, timeZone)
        let end = LocalTime(hour: BuiltInInterpreter.bedtimeEnd.hour, minute: BuiltInInterpreter.bedtimeEnd.minute)!
        guard start != end else { return .clarify(question: "Bedtime would start when it ends. When should bedtime start?") }
        // "50 more minutes then bed" at 06:13: a bedtime from the morning is not what was meant (one from
        // the afternoon may be: "15 more minutes then bedtime mode" after lunch).
        guard !(5 * 60..<12 * 60).contains(start.minutesSinceMidnight) else {
            return .clarify(question: "Bedtime from \(start) to \(end) would last most of the day. What time should bedtime start?")
        }
        command.schedule = ParentCommand.Schedule(start: start.description, end: end.description, type: .bedtime, repeat: ParentCommand.Schedule.Repeat.none)
        do {
            try command.validate(now: now)
        } catch {
            return .clarify(question: "I couldn't combine that (\(error)). Could you send the two parts separately?")
        }
        return .command(command, child: child)
    }
}
