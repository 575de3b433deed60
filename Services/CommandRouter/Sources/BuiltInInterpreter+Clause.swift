import Foundation

/// What one clause says, slot by slot, before it is read as a command.
struct ClauseSlots: Sendable {
    enum Period: Sendable, Equatable { case restOfDay, tonight }

    /// Predicate words and particles, in order: the grammar's verbs.
    var cues: [(key: Key, at: Int)] = []
    var apps: [String] = []
    var categories: [ParentCommand.Category] = []
    var everything = false
    var device = false
    var restrictions = false
    /// Positions of targets (apps, categories, everything, devices, restrictions) and of restrictions.
    var targetPositions: [Int] = []
    /// Positions of schedule words ("bedtime", "homework mode").
    var kindPositions: [Int] = []
    /// Positions of block words used as nouns, after an article, a possessive or what is blocked
    /// ("the ban", "a block", "the YouTube ban"), and of restriction words a disabling verb acts
    /// on ("disable the games limit"): what a verb before them acts on.
    var blockNounPositions: [Int] = []
    var restrictionPositions: [Int] = []
    var unknownTargets: [String] = []

    var durations: [DurationPhrase] = []
    var untilTimes: [TimeExpression] = []
    var conditions: [String] = []
    var periods: [Period] = []
    /// A start later than now that is not a clock time ("after dinner", "tomorrow").
    var futureStart = false
    /// "after 8 tonight": a block or allowance starting later, or a schedule's start.
    var afterTimes: [TimeExpression] = []
    var windows: [(start: TimeExpression, end: TimeExpression)] = []
    var startTimes: [TimeExpression] = []
    var endTimes: [TimeExpression] = []
    var repeats: [RepeatPhrase] = []
    var weekendWord = false
    /// "every evening", "nightly", "at night": a window's bare hours are evening ones.
    var eveningWord = false
    /// "stay up": more time at night.
    var staysUp = false
    var dayWords: [TimeExpression.Day] = []
    var kinds: [ParentCommand.Schedule.Kind] = []
    var only = false
    var mode = false
    var now = false
    var moreTime = false
    var budget = false

    var names: [String] = []
    var pronouns: [String] = []
    var plural = false

    var hasTarget: Bool { !apps.isEmpty || !categories.isEmpty || everything || device || restrictions }
}

/// Slot filling over the lexes `lo..<hi` of one clause: sub-grammars for durations, times,
/// "until" phrases, windows, targets and children consume what they recognise; predicate words
/// are kept in order as cues; whatever is left unexplained makes the interpreter ask.
struct ClauseParser {
    let lexes: [Lex]
    let tokens: [Token]
    let text: String
    let lo: Int
    let hi: Int
    var slots = ClauseSlots()
    var explained: [Bool]

    init(lexes: [Lex], tokens: [Token], text: String, range: Range<Int>) {
        self.lexes = lexes
        self.tokens = tokens
        self.text = text
        lo = range.lowerBound
        hi = range.upperBound
        explained = [Bool](repeating: false, count: lexes.count)
    }

    func key(_ i: Int) -> Key? { i >= lo && i < hi ? lexes[i].key : nil }
    func sense(_ i: Int) -> Sense? { i >= lo && i < hi ? lexes[i].sense : nil }
    func punctuation(_ i: Int) -> String? {
        if case .punctuation(let mark)? = sense(i) { return mark }
        return nil
    }

    /// The words of lexes `range` as the parent wrote them.
    func original(_ range: Range<Int>) -> String {
        guard !range.isEmpty else { return "" }
        let start = tokens[lexes[range.lowerBound].first].range.lowerBound
        let end = tokens[lexes[range.upperBound - 1].last].range.upperBound
        return String(text[start..<end])
    }

    /// A name as written ("Sam" from "Sam's").
    func writtenName(_ i: Int) -> String {
        let token = tokens[lexes[i].first]
        return String(text[token.range].prefix(token.word.count))
    }

    private mutating func mark(_ range: Range<Int>) {
        for i in range where i < hi { explained[i] = true }
    }

    var unexplained: [Int] { (lo..<hi).filter { !explained[$0] } }

    mutating func scan() {
        var i = lo
        while i < hi {
            if let (phrase, next) = duration(at: i) {
                slots.durations.append(phrase)
                mark(i..<next)
                i = next
                continue
            }
            i = scanOne(at: i)
        }
    }

    private mutating func scanOne(at i: Int) -> Int {
        switch lexes[i].sense {
        case .app(let id):
            if !slots.apps.contains(id) { slots.apps.append(id) }
            slots.targetPositions.append(i)
            mark(i..<i + 1)
        case .category where isDeviceTV(i):
            slots.device = true
            slots.targetPositions.append(i)
            mark(i..<i + 1)
        case .category(let category):
            if !slots.categories.contains(category) { slots.categories.append(category) }
            slots.targetPositions.append(i)
            mark(i..<i + 1)
        case .name:
            let name = writtenName(i)
            if !slots.names.contains(where: { $0.lowercased() == name.lowercased() }) { slots.names.append(name) }
            let end = key(i + 1) == .possessive ? i + 2 : i + 1
            mark(i..<end)
            return end
        case .unknown:
            if isTargetSlot(i) { slots.unknownTargets.append(original(i..<i + 1)) }
        case .punctuation:
            mark(i..<i + 1)
        case .number, .clock:
            if let next = startOrWindow(at: i, from: i, bare: isScheduleWord(i - 1)) { return next }
        case .key(let key):
            return scanKey(key, at: i)
        }
        return i + 1
    }

    /// `(to|until|till|-|and) TimeExpression` closing a window.
    private func windowEnd(at j: Int) -> (TimeExpression, Int)? {
        guard key(j) == .to || key(j) == .until || key(j) == .and || punctuation(j) == "-" else { return nil }
        return timeExpression(at: j + 1, bare: true)
    }

    /// A time at `at` (the lexes from `from` on consumed): a window's start when an end follows,
    /// otherwise a start time.
    /// Whether "to" and a time follow `j`: after "until" or "at", "20 to 8" names the minutes before an hour.
    private func minutesToTheHour(after j: Int) -> Bool {
        guard key(j) == .to else { return false }
        switch sense(j + 1) {
        case .number?, .clock?: return true
        default: return false
        }
    }

    private mutating func startOrWindow(at j: Int, from i: Int, bare: Bool) -> Int? {
        guard let (start, next) = timeExpression(at: j, bare: bare) else { return nil }
        if let (end, after) = windowEnd(at: next) {
            slots.windows.append((start, end))
            mark(i..<after)
            return after
        }
        slots.startTimes.append(start)
        mark(i..<next)
        return next
    }

    private mutating func scanKey(_ k: Key, at i: Int) -> Int {
        switch k {
        case .until, .before:
            var j = i + 1
            if key(j) == .after { j += 1 }
            if let (expression, next) = timeExpression(at: j, bare: true) {
                // "until 20 to 8" is 7:40, not 20:00 then 8: left unexplained, a question
                if minutesToTheHour(after: next) { return next }
                slots.untilTimes.append(expression)
                mark(i..<next)
                return next
            }
            // "until I say so", "until I say otherwise": until lifted, no task to wait for
            if key(j) == .speaker, j + 1 < hi, ["say", "says", "tell"].contains(tokens[lexes[j + 1].first].word) {
                var next = j + 2
                while next < hi, key(next) == .speaker || ["so", "otherwise"].contains(tokens[lexes[next].first].word) || key(next) == .filler { next += 1 }
                mark(i..<next)
                return next
            }
            // "no YouTube before school": the morning, hours away, and no task a block could wait for: left unexplained, a question
            if k == .before, j < hi, ["school", "work", "class", "college", "nursery"].contains(tokens[lexes[j].first].word) { return j + 1 }
            if case .scheduleKind(.bedtime)? = key(j) {
                slots.conditions.append("bedtime")
                mark(i..<j + 1)
                return j + 1
            }
            if let (condition, next) = conditionClause(at: j) {
                slots.conditions.append(condition)
                mark(i..<next)
                return next
            }
        case .after:
            if let (expression, next) = timeExpression(at: i + 1, bare: true) {
                slots.afterTimes.append(expression)
                mark(i..<next)
                return next
            }
            if let (_, next) = conditionClause(at: i + 1) {
                slots.futureStart = true
                mark(i..<next)
                return next
            }
        case .from, .between:
            if let next = startOrWindow(at: i + 1, from: i, bare: true) { return next }
            if i + 1 < hi { mark(i..<i + 1) }
        case .at, .of, .by:
            // "off by 8": a time to be off by is when the block starts.
            let bare = k == .at || k == .by || isScheduleWord(i - 1) || (key(i - 1) == .article && isScheduleWord(i - 2))
            // "at 10 to 9" is 8:50, no window from 10 to 9
            if k == .at || k == .by, let (_, next) = timeExpression(at: i + 1, bare: bare), minutesToTheHour(after: next) { return next }
            if let next = startOrWindow(at: i + 1, from: i, bare: bare) { return next }
            if k == .by || (k == .of && i + 1 < hi) { mark(i..<i + 1) }
            if k == .at, key(i + 1) == .night {
                slots.eveningWord = true
                slots.periods.append(.tonight)
                mark(i..<i + 2)
                return i + 2
            }
        case .to:
            if let (expression, next) = timeExpression(at: i + 1, bare: true) {
                if isScheduleWord(i - 1), slots.startTimes.isEmpty, slots.windows.isEmpty {
                    slots.startTimes.append(expression)
                } else {
                    slots.endTimes.append(expression)
                }
                mark(i..<next)
                return next
            }
            if amount(at: i + 1) != nil { slots.budget = true }
            if i + 1 < hi { mark(i..<i + 1) }
        case .wake:
            var j = i + 1
            if key(j) == .up { j += 1 }
            if key(j) == .at { j += 1 }
            if let (expression, next) = timeExpression(at: j, bare: true) {
                slots.endTimes.append(expression)
                mark(i..<next)
                return next
            }
        case .forWord:
            var j = i + 1
            if key(j) == .article { j += 1 }
            switch key(j) {
            case .night?, .tonight?:
                slots.periods.append(.tonight)
                mark(i..<j + 1)
                return j + 1
            case .today?, .restOfDay?:
                slots.periods.append(.restOfDay)
                mark(i..<j + 1)
                return j + 1
            default:
                if i + 1 < hi { mark(i..<i + 1) }
            }
        case .today, .restOfDay:
            slots.periods.append(.restOfDay)
            slots.dayWords.append(.today)
            mark(i..<i + 1)
        case .tonight:
            slots.periods.append(.tonight)
            slots.dayWords.append(.tonight)
            mark(i..<i + 1)
        case .weekday:
            if let (days, next) = daySet(at: i) {
                slots.repeats.append(.days(days))
                mark(i..<next)
                return next
            }
            slots.futureStart = true
            mark(i..<i + 1)
        case .tomorrow:
            slots.futureStart = true
            mark(i..<i + 1)
        case .weekend:
            slots.weekendWord = true
            mark(i..<i + 1)
        case .repeatDays(let days):
            slots.repeats.append(.named(days))
            if (lexes[i].first...lexes[i].last).contains(where: { ["evening", "night", "nightly"].contains(tokens[$0].word) }) { slots.eveningWord = true }
            mark(i..<i + 1)
        case .repeatNights(let days):
            slots.repeats.append(.nights(days))
            mark(i..<i + 1)
        case .scheduleKind(let kind):
            slots.kinds.append(kind)
            slots.kindPositions.append(i)
            mark(i..<i + 1)
        case .mode:
            slots.mode = true
            // "restricted mode on YouTube" is YouTube's own filter, no block of YouTube: left unexplained
            if i > lo, tokens[lexes[i - 1].last].word == "restricted" { break }
            mark(i..<i + 1)
        case .only:
            slots.only = true
            mark(i..<i + 1)
        case .filler:
            if tokens[lexes[i].first].word == "now" { slots.now = true }
            mark(i..<i + 1)
        case .article, .a, .speaker, .be, .aux, .possessive, .with, .next, .inside, .and, .or, .but, .then, .except:
            mark(i..<i + 1)
        case .atMost:
            if amount(at: i + 1) != nil { slots.budget = true }
            mark(i..<i + 1)
        case .him, .her:
            let pronoun = k == .him ? "him" : "her"
            if !slots.pronouns.contains(pronoun) { slots.pronouns.append(pronoun) }
            mark(i..<i + 1)
        case .kids:
            slots.plural = true
            mark(i..<i + 1)
        case .everything:
            slots.everything = true
            slots.targetPositions.append(i)
            mark(i..<i + 1)
        case .device:
            if !isLocator(i) {
                slots.device = true
                slots.targetPositions.append(i)
            }
            mark(i..<i + 1)
        case .restrictions:
            slots.restrictions = true
            slots.targetPositions.append(i)
            slots.restrictionPositions.append(i)
            if isObjectOfDisabling(i) { slots.blockNounPositions.append(i) }
            mark(i..<i + 1)
        case .time:
            if key(i - 1) == .more { slots.moreTime = true }
            mark(i..<i + 1)
        case .noon, .midnight:
            if let (expression, next) = timeExpression(at: i, bare: true) {
                slots.startTimes.append(expression)
                mark(i..<next)
                return next
            }
        case .block, .shutdown, .lock, .pause, .shut, .turn, .cut, .take, .stop, .remove, .allow, .unblock, .lift,
             .end, .undo, .freeTime, .letVerb, .give, .add, .grant, .extend, .have, .get, .stay, .use, .want, .setVerb,
             .enough, .over, .timeUp, .no, .not, .more, .another, .modal, .off, .on, .down, .back, .away, .up, .out,
             .warn, .tell, .remind, .notify, .send, .know:
            slots.cues.append((k, i))
            if k == .stay, i + 1 < hi, tokens[lexes[i + 1].first].word == "up" { slots.staysUp = true }
            if ClauseSlots.blockWords.contains(k), i > lo, Lex.namesABlock(lexes, i) { slots.blockNounPositions.append(i) }
            mark(i..<i + 1)
        case .warningNoun, .conditionWord, .done, .finish, .clean, .question, .unit, .half, .quarter, .couple, .vague, .longer,
             .am, .pm, .oclock, .morning, .afternoon, .evening, .night:
            break
        }
        return i + 1
    }

    /// Whether the restriction word at `i` is what a disabling, stopping or turning verb just before
    /// it acts on ("disable the games limit", "stop the games limit", "turn the limit back on"):
    /// only articles, possessives, what is limited and the verb's particle between them ("block
    /// YouTube with a time limit" is not).
    private func isObjectOfDisabling(_ i: Int) -> Bool {
        var j = i - 1
        while j >= lo, lexes[j].isBetweenVerbAndObject { j -= 1 }
        guard j >= lo, let verb = lexes[j].key else { return false }
        return [.block, .turn, .pause, .stop].contains(verb)
    }

    private func isScheduleWord(_ i: Int) -> Bool {
        if case .scheduleKind? = key(i) { return true }
        return key(i) == .mode
    }

    /// "on the TV", "on his TV": the television the time is spent on, not video apps.
    private func isDeviceTV(_ i: Int) -> Bool {
        guard tokens[lexes[i].first].word == "tv", lexes[i].first == lexes[i].last else { return false }
        var j = i - 1
        while j >= lo, key(j) == .article || key(j) == .him || key(j) == .her || key(j) == .possessive || key(j) == .speaker { j -= 1 }
        if case .name? = sense(j) { j -= 1 }
        while j >= lo, key(j) == .possessive { j -= 1 }
        return key(j) == .on
    }

    /// A device after "from" or "in", or after "on"/"off" once an app or category is named
    /// ("games on Ethan's iPad"), says where, not what.
    private func isLocator(_ i: Int) -> Bool {
        var j = i - 1
        while j >= lo {
            switch sense(j) {
            case .key(.article)?, .key(.possessive)?, .key(.him)?, .key(.her)?, .key(.speaker)?, .name?: j -= 1
            case .key(.from)?, .key(.inside)?: return true
            case .key(.on)?, .key(.off)?: return !slots.apps.isEmpty || !slots.categories.isEmpty
            default: return false
            }
        }
        return false
    }

    /// An unknown word right after a verb that takes an app, or in a list of apps.
    private func isTargetSlot(_ i: Int) -> Bool {
        var j = i - 1
        while j >= lo, key(j) == .article || key(j) == .a || key(j) == .filler { j -= 1 }
        guard j >= lo else { return false }
        switch sense(j) {
        case .app?, .category?: return false
        case .key(let k)?:
            switch k {
            case .block, .lock, .pause, .cut, .stop, .remove, .allow, .unblock, .undo, .use, .no, .more, .enough, .on, .from,
                 .and, .or, .shut, .off:
                return true
            default: return false
            }
        case .punctuation(",")?:
            if case .app? = sense(j - 1) { return true }
            return false
        default: return false
        }
    }

    /// The words after "until" that are not a time: "homework is done" → `homework`, "she cleans her
    /// room" → `clean room`, "he finishes reading" → `reading`; pronouns in it name the child.
    mutating func conditionClause(at start: Int) -> (String, Int)? {
        var j = start
        var content: [String] = []
        var cleaning = false
        while j < hi {
            if punctuation(j) != nil || key(j) == .then || key(j) == .or { break }
            if key(j) == .forWord, duration(at: j) != nil || { if case .name? = sense(j + 1) { return true }; return false }() { break }
            switch sense(j)! {
            case .key(.conditionWord(let word)):
                if !content.contains(word) { content.append(word) }
            case .key(.clean):
                cleaning = true
            case .key(.him), .key(.her):
                let pronoun = key(j) == .him ? "him" : "her"
                if !slots.pronouns.contains(pronoun) { slots.pronouns.append(pronoun) }
            case .key(.article), .key(.a), .key(.be), .key(.aux), .key(.done), .key(.finish), .key(.speaker),
                 .key(.modal), .key(.have), .key(.get), .key(.up), .key(.with), .key(.of), .key(.after),
                 .key(.possessive), .key(.filler), .key(.and), .key(.over), .key(.use):
                break
            case .unknown(let word), .name(let word):
                // "until 25:00" is no task: a time that is not one is a question
                guard !word.contains(where: \.isNumber) else { return nil }
                content.append(word)
            case .key(.scheduleKind(.bedtime)):
                content.append("bedtime")
            default:
                return content.isEmpty ? nil : (normalizedCondition(content, cleaning), j)
            }
            j += 1
        }
        guard !content.isEmpty else { return nil }
        return (normalizedCondition(content, cleaning), j)
    }

    /// A cleaned room is `clean room` however it is said ("her room is clean", "cleans her room").
    private func normalizedCondition(_ content: [String], _ cleaning: Bool) -> String {
        content.map { $0 == "room" ? "clean room" : $0 }.joined(separator: " ")
    }
}
