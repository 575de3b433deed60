import Foundation

/// The part of speech the built-in grammar gives a word or phrase.
enum Key: Hashable, Sendable {
    // Predicates
    case block, shutdown, lock, pause, shut, turn, cut, take, stop, remove
    case allow, unblock, lift, end, undo, freeTime
    case letVerb, give, add, grant, extend, have, get, stay, use, want, setVerb
    case warn, tell, remind, notify, send, know, wake, enough, over, timeUp
    // Nouns
    case warningNoun, restrictions, everything, device, mode, time
    case scheduleKind(ParentCommand.Schedule.Kind)
    case conditionWord(String)
    // Particles and prepositions
    case off, on, down, back, away, up, out, inside
    case forWord, until, after, before, from, to, between, at, by, of, with
    case and, or, then, but
    /// "except", "apart from": a target left out of the block or allowance.
    case except
    /// "no more than", "at most" before an amount: a daily allowance.
    case atMost
    // Polarity and degree
    case not, no, more, another, only
    // People
    case him, her, kids, speaker
    // Articles: `a`/`an` also count one unit of time
    case article, a
    // Durations and times
    case unit(Int)
    case half, quarter, couple, vague, longer, next, restOfDay
    case noon, midnight, am, pm, oclock
    case today, tonight, tomorrow, morning, afternoon, evening, night
    case weekday(Int)
    case weekend
    case repeatDays(ParentCommand.Schedule.Repeat)
    /// School nights, weekend nights: only an overnight window repeats on them.
    case repeatNights(ParentCommand.Schedule.Repeat)
    // Conditions
    case done, finish, clean
    // Function words
    case be, aux, modal, filler, question, possessive
}

/// What a stretch of tokens is to the grammar.
enum Sense: Hashable, Sendable {
    case key(Key)
    case app(String)
    case category(ParentCommand.Category)
    case number(Double)
    case clock(hour: Int, minute: Int)
    case punctuation(String)
    /// A word the lexicon does not know, in a place where a child's name goes.
    case name(String)
    case unknown(String)
}

/// A lexed stretch of tokens `first...last`.
struct Lex: Sendable {
    var sense: Sense
    var first: Int
    var last: Int

    /// Whether the block word at `i` is a noun: after an article, a possessive or what it blocks
    /// ("the ban", "a block", "his lock", "the YouTube ban").
    static func namesABlock(_ lexes: [Lex], _ i: Int) -> Bool {
        guard i > 0 else { return false }
        switch lexes[i - 1].sense {
        case .key(.article), .key(.a), .key(.possessive), .key(.him), .key(.her), .app, .category: return true
        default: return false
        }
    }

    var key: Key? {
        if case .key(let key) = sense { return key }
        return nil
    }

    /// Words that may stand between a verb and the block or limit it acts on: articles,
    /// possessives, what is blocked and the verb's particle ("turn *off the YouTube* limit").
    var isBetweenVerbAndObject: Bool {
        switch sense {
        case .key(.article), .key(.a), .key(.possessive), .key(.him), .key(.her), .key(.off), .key(.out), .key(.down), .key(.on), .key(.back),
             .app, .category:
            true
        default:
            false
        }
    }
}

/// The built-in interpreter's vocabulary: single words, multi-word phrases (longest match wins),
/// the app and category synonyms of an ``AppCatalog``, and the words a typo may be corrected to.
final class Lexicon: Sendable {
    let words: [String: Sense]
    /// Phrases of two or more words, keyed by their first word, longest first.
    let phrases: [String: [(words: [String], sense: Sense)]]
    /// Words a misspelling may be corrected to, by length.
    let correctable: [Int: [[UInt8]]]

    init(catalog: AppCatalog) {
        var words: [String: Sense] = [:]
        var phraseList: [([String], Sense)] = []
        func add(_ sense: Sense, _ entries: [String]) {
            for entry in entries {
                let parts = entry.split(separator: " ").map(String.init)
                if parts.count == 1 { words[parts[0]] = sense } else { phraseList.append((parts, sense)) }
            }
        }
        func key(_ k: Key, _ entries: [String]) { add(.key(k), entries) }

        key(.block, ["block", "ban", "disable", "restrict", "restricting", "restricted", "prohibit", "forbid", "kill", "blocked", "banned", "disabled",
                     "blocking", "bann", "blokc", "cut off", "mute", "muted", "muting", "silence", "silenced",
                     "silencing", "disabling", "banning", "killing", "deactivate", "deactivated", "deactivating"])
        key(.shutdown, ["shutdown", "shut down", "lock down", "lockdown", "ground", "grounded", "time out", "timeout"])
        key(.lock, ["lock", "locked"])
        key(.pause, ["pause", "freeze", "suspend", "paused", "frozen", "freezing"])
        key(.shut, ["shut"])
        key(.turn, ["turn", "switch"])
        key(.cut, ["cut"])
        key(.take, ["take", "took"])
        key(.stop, ["stop"])
        // "revoke YouTube", "drop TikTok" take it away; "revoke the ban", "drop the limits" lift them (a block named after the verb)
        key(.remove, ["remove", "delete", "uninstall", "revoke", "get rid of", "withdraw", "drop"])
        key(.allow, ["allow", "permit", "enable", "re enable", "reenable", "allowed", "allowing", "permitting"])
        key(.unblock, ["unblock", "unlock", "unban", "restore", "resume", "unpause", "unrestrict", "unblocked", "unlocked",
                       "unmute", "unmuted", "unfreeze", "unfrozen", "unsilence", "unground", "ungrounded", "unbanned",
                       "unpaused", "un block", "un ban", "un lock", "un mute", "un freeze", "unblocking", "unlocking", "unbanning",
                       "unmuting", "unfreezing", "unpausing", "ungrounding", "unrestricting", "unsilencing"])
        key(.lift, ["lift", "lifted"])
        key(.undo, ["undo", "reverse", "scrap", "call off", "undone"])
        key(.end, ["end", "cancel", "clear", "cancelled", "canceled"])
        key(.freeTime, ["free time", "free play"])
        key(.letVerb, ["let", "letting"])
        key(.give, ["give", "gimme"])
        key(.add, ["add"])
        key(.grant, ["grant"])
        key(.extend, ["extend", "extended", "extension"])
        key(.have, ["have", "has", "had"])
        key(.get, ["get", "gets", "got"])
        key(.stay, ["stay", "stays"])
        key(.use, ["use", "play", "watch", "go", "using", "playing", "watching", "plays", "uses", "access", "be on"])
        key(.want, ["want", "wants"])
        key(.setVerb, ["set", "make", "put", "schedule", "set up", "start", "activate"])
        key(.warn, ["warn"])
        key(.tell, ["tell"])
        key(.remind, ["remind"])
        key(.notify, ["notify", "alert", "text", "ping"])
        key(.send, ["send"])
        key(.know, ["know"])
        key(.wake, ["wake", "wake up", "wakeup"])
        key(.enough, ["enough"])
        key(.over, ["over"])
        key(.timeUp, ["time is up", "time up", "times up"])

        key(.warningNoun, ["warning", "message", "note", "notification", "reminder", "heads up", "msg", "warnings"])
        key(.restrictions, ["restrictions", "restriction", "limits", "limit", "time limit", "time limits", "rules", "controls", "blocks", "parental controls",
                            "screen time limits", "screen time restrictions", "limitations", "grounding",
                            "block list", "blocklist", "blocked list", "ban list", "banned list", "blacklist"])
        key(.everything, ["everything", "all apps", "apps", "screens", "screen", "screen time", "internet", "wifi",
                          "wi fi", "all the apps", "every app", "the whole thing"])
        key(.device, ["ipad", "tablet", "phone", "iphone", "device", "computer", "laptop", "ipads", "tab", "mobile",
                     "xbox", "x box", "playstation", "play station", "ps 4", "ps 5", "ps4", "ps5", "nintendo switch", "nintendo",
                     "chromebook", "pc", "macbook", "mac", "television", "telly", "smart tv", "kindle fire"])
        key(.scheduleKind(.bedtime), ["bedtime", "bed time", "bed", "lights out", "sleep", "sleep mode", "night mode",
                                      "sleep time", "bedtimes", "downtime", "down time"])
        key(.scheduleKind(.educational), ["homework time", "homework mode", "study time", "study mode", "school mode",
                                          "learning time", "learning mode", "study"])
        key(.scheduleKind(.socialOnly), ["social only", "social mode", "social only mode"])
        key(.mode, ["mode", "schedule"])
        key(.scheduleKind(.educational), ["homework schedule", "study schedule", "homework hour", "homework routine"])
        key(.time, ["time"])

        key(.conditionWord("homework"), ["homework", "hw", "homwork", "school work", "schoolwork", "assignments", "assignment"])
        key(.conditionWord("chores"), ["chores", "chore"])
        key(.conditionWord("room"), ["room", "bedroom"])
        key(.conditionWord("reading"), ["reading"])
        key(.conditionWord("practice"), ["practice", "practicing"])
        key(.conditionWord("dinner"), ["dinner", "supper"])
        key(.conditionWord("lunch"), ["lunch"])
        key(.conditionWord("breakfast"), ["breakfast"])
        key(.conditionWord("teeth"), ["teeth"])
        key(.conditionWord("bath"), ["bath", "shower"])

        key(.off, ["off"])
        key(.on, ["on", "onto"])
        key(.down, ["down"])
        key(.back, ["back"])
        key(.away, ["away"])
        key(.up, ["up"])
        key(.out, ["out"])
        key(.inside, ["in", "into"])
        key(.forWord, ["for"])
        key(.until, ["until", "till", "til", "untill", "untll", "up until", "up till"])
        key(.after, ["after"])
        key(.before, ["before"])
        key(.from, ["from"])
        key(.to, ["to", "through", "thru"])
        key(.between, ["between"])
        key(.at, ["at", "@"])
        key(.by, ["by"])
        key(.of, ["of"])
        key(.with, ["with"])
        key(.and, ["and", "plus", "n"])
        key(.or, ["or"])
        key(.then, ["then", "afterwards", "after that"])
        key(.but, ["but"])
        key(.except, ["except", "except for", "apart from", "other than", "excluding", "save for", "with the exception of"])
        key(.atMost, ["no more than", "not more than", "at most", "a maximum of"])
        key(.not, ["not", "never", "no longer", "no need to", "no need for", "no need", "not anymore"])
        key(.no, ["no", "nothing"])
        key(.more, ["more", "extra", "additional"])
        key(.another, ["another"])
        // "nothing but homework apps" is only them, never a block of them
        key(.only, ["only", "nothing but", "nothing except", "nothing other than", "nothing apart from", "none but"])
        key(.him, ["him", "he", "his", "himself"])
        key(.her, ["her", "she", "hers", "herself"])
        key(.kids, ["kids", "children", "everyone", "everybody", "both", "boys", "girls", "the kids", "all kids"])
        key(.speaker, ["i", "me", "my", "we", "us", "our", "you", "u", "ya", "your"])
        key(.article, ["the", "all", "this", "that", "these", "those", "some", "any", "their", "it", "them", "his own"])
        key(.a, ["a", "an"])

        key(.unit(1), ["second", "seconds", "sec", "secs"])
        key(.unit(60), ["minute", "minutes", "min", "mins", "m", "minuts", "minits", "mns", "mints"])
        key(.unit(3600), ["hour", "hours", "hr", "hrs", "h", "hrz", "hous"])
        key(.unit(86_400), ["day", "days"])
        key(.unit(604_800), ["week", "weeks", "wk", "wks"])
        // Longer than any command may last, a question ("fortnight" alone is a common spelling of Fortnite).
        key(.unit(1_209_600), ["a fortnight", "fortnights"])
        key(.half, ["half"])
        key(.quarter, ["quarter"])
        key(.couple, ["couple"])
        key(.vague, ["few", "several", "while", "bit", "little", "some time", "sometime", "late", "ages"])
        key(.longer, ["longer"])
        key(.next, ["next", "coming", "following"])
        key(.restOfDay, ["rest of the day", "rest of today", "rest of the evening", "all day",
                         "the day", "remainder of the day"])
        key(.noon, ["noon", "midday", "lunchtime"])
        key(.midnight, ["midnight"])
        key(.am, ["am", "a.m"])
        key(.pm, ["pm", "p.m"])
        key(.oclock, ["oclock", "o clock"])
        key(.today, ["today", "tday"])
        key(.tonight, ["tonight", "tonite", "this evening", "rest of the night"])
        key(.tomorrow, ["tomorrow", "tmrw", "tmr", "tomorow", "tommorow", "tommorrow"])
        key(.morning, ["morning"])
        key(.afternoon, ["afternoon"])
        key(.evening, ["evening"])
        key(.night, ["night", "nights"])
        for (index, day) in ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"].enumerated() {
            key(.weekday(index + 1), [day, day + "s"])
        }
        key(.weekday(2), ["mon"])
        key(.weekday(3), ["tue", "tues"])
        key(.weekday(4), ["wed", "weds"])
        key(.weekday(5), ["thu", "thur", "thurs"])
        key(.weekday(6), ["fri"])
        key(.weekend, ["weekend"])
        key(.repeatNights(.weekdays), ["school nights", "school night", "weeknights", "weeknight", "week nights",
                                       "every school night", "every weeknight", "every week night", "each school night"])
        key(.repeatDays(.weekdays), ["weekdays", "weekday", "week days", "every weekday", "school days", "school day",
                                     "mon fri", "every school day"])
        key(.repeatDays(.daily), ["daily", "every night", "every day", "each night", "nightly", "every evening",
                                  "each day", "everyday", "all week", "every single night"])
        key(.repeatDays(.weekends), ["weekends", "every weekend", "each weekend"])
        key(.repeatNights(.weekends), ["weekend nights"])

        key(.done, ["done", "finished", "complete", "completed", "ready", "over with"])
        key(.finish, ["finish", "finishes", "finishing", "completes"])
        key(.clean, ["clean", "cleans", "cleaned", "tidy", "tidies", "tidied", "cleaning"])

        key(.be, ["is", "are", "be", "was", "being", "been", "were"])
        key(.aux, ["do", "does", "did"])
        key(.modal, ["can", "could", "would", "will", "may", "might", "should", "shall", "must", "gonna", "needs to", "need to", "have to", "has to", "got to", "gotta"])
        key(.filler, ["please", "pls", "plz", "kindly", "hey", "hi", "ok", "okay", "fine", "alright", "just", "right",
                      "now", "immediately", "asap", "thanks", "thank", "like", "um", "uh", "so", "actually", "again",
                      "too", "also", "right away", "straight away", "go ahead and", "for me", "for now", "thx", "ty",
                      "emergency", "really", "though", "then please", "right now", "as well", "yeah", "yes", "sure",
                      "oh", "about", "around", "approximately", "any more", "anymore", "totally", "completely",
                      "quick", "quickly", "still", "there", "altogether", "entirely", "make sure", "ensure", "any longer", "need", "needs",
                      "wait", "hmm", "hm", "umm", "erm", "er", "ah", "oops", "whoops", "well"])
        key(.question, ["what", "how", "why", "when", "where", "who", "which", "whats", "hows"])
        key(.possessive, ["'s"])

        for app in catalog.apps {
            for synonym in app.synonyms + [app.id.replacingOccurrences(of: "_", with: " ")] {
                add(.app(app.id), [synonym])
            }
        }
        for (phrase, category) in catalog.categorySynonyms { add(.category(category), [phrase]) }

        let numbers = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                       "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"]
        for (value, word) in numbers.enumerated() { words[word] = .number(Double(value)) }
        for (word, value) in [("thirty", 30), ("forty", 40), ("fourty", 40), ("fifty", 50), ("sixty", 60),
                              ("seventy", 70), ("eighty", 80), ("ninety", 90), ("hundred", 100)] {
            words[word] = .number(Double(value))
        }

        self.words = words
        var phrases: [String: [(words: [String], sense: Sense)]] = [:]
        for (parts, sense) in phraseList { phrases[parts[0], default: []].append((parts, sense)) }
        for first in phrases.keys { phrases[first]!.sort { $0.words.count > $1.words.count } }
        self.phrases = phrases

        var correctable: [Int: [[UInt8]]] = [:]
        var seen = Set<String>()
        let candidates = words.keys.filter { word in
            guard case .key(let key) = words[word]! else { return true }
            switch key {
            case .speaker, .article, .filler, .question, .be, .modal, .possessive: return false
            default: return true
            }
        } + phraseList.flatMap(\.0)
        for word in candidates where word.count >= 4 && word.allSatisfy(\.isLetter) && seen.insert(word).inserted {
            correctable[word.utf8.count, default: []].append(Array(word.utf8))
        }
        for length in correctable.keys { correctable[length]!.sort { $0.lexicographicallyPrecedes($1) } }
        self.correctable = correctable
    }

    static let standard = Lexicon(catalog: .standard)

    func isKnown(_ word: String) -> Bool {
        words[word] != nil || phrases[word] != nil || Double(word) != nil || word.contains(":")
    }

    /// Words one edit from a lexicon word that name something else: Robux, Roblox's currency, are no Roblox.
    static let neverCorrected: Set<String> = ["robux", "vbucks"]

    /// The lexicon word within one edit (two for words of 8 or more letters) of `word`, if exactly
    /// one is nearest. Adjacent transpositions count as one edit.
    func correction(for word: String) -> String? {
        let w = Array(word.utf8)
        guard w.count >= 4, !Self.neverCorrected.contains(word), w.allSatisfy({ $0 >= 97 && $0 <= 122 }) else { return nil }
        let limit = w.count >= 8 ? 2 : 1
        var best: [UInt8]?
        var bestDistance = limit + 1
        var tie = false
        for length in (w.count - limit)...(w.count + limit) {
            // A four-letter word is only corrected by an insertion (gams → games, meda → media).
            if w.count == 4 && length != 5 { continue }
            for candidate in correctable[length] ?? [] where Self.startsAlike(w, candidate) {
                let d = Self.distance(w, candidate, limit: bestDistance + 1)
                if d < bestDistance {
                    best = candidate
                    bestDistance = d
                    tie = false
                } else if d == bestDistance, let current = best, !sameSense(current, candidate) {
                    tie = true
                }
            }
        }
        guard let best, !tie, bestDistance <= limit else { return nil }
        return String(decoding: best, as: UTF8.self)
    }

    /// Whether a correction keeps the word's start: its first letter, or its first two swapped
    /// ("oyutube"). A prefix is never dropped or swapped: "unblocking" is not "blocking", nor
    /// "reinstall" "uninstall".
    static func startsAlike(_ word: [UInt8], _ candidate: [UInt8]) -> Bool {
        word[0] == candidate[0] || (word.count > 1 && candidate.count > 1 && word[0] == candidate[1] && word[1] == candidate[0])
    }

    /// Two spellings of one word ("blokc", "block") are not a tie.
    private func sameSense(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard let x = words[String(decoding: a, as: UTF8.self)], let y = words[String(decoding: b, as: UTF8.self)] else { return false }
        return x == y
    }

    /// Optimal string alignment distance, giving up (returning `limit`) once it cannot be below it.
    static func distance(_ a: [UInt8], _ b: [UInt8], limit: Int) -> Int {
        if abs(a.count - b.count) >= limit { return limit }
        let n = b.count
        var previous2 = [Int](repeating: 0, count: n + 1)
        var previous = Array(0...n)
        var current = [Int](repeating: 0, count: n + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMin = i
            for j in 1...n {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, previous2[j - 2] + 1)
                }
                current[j] = value
                rowMin = min(rowMin, value)
            }
            if rowMin >= limit { return limit }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return min(previous[n], limit)
    }

    /// Lexes tokens: numbers ("forty five" → 45), clock times, phrases (longest first), words.
    func lex(_ tokens: [Token], names: Set<Int>) -> [Lex] {
        var lexes: [Lex] = []
        lexes.reserveCapacity(tokens.count)
        var i = 0
        while i < tokens.count {
            let token = tokens[i]
            if token.isPunctuation {
                lexes.append(Lex(sense: .punctuation(token.word), first: i, last: i))
                i += 1
                continue
            }
            if names.contains(i) {
                lexes.append(Lex(sense: .name(token.word), first: i, last: i))
                i += 1
                continue
            }
            if let clock = Self.clock(token.word) {
                lexes.append(Lex(sense: clock, first: i, last: i))
                i += 1
                continue
            }
            if let first = token.word.utf8.first, first >= 48, first <= 57, let value = Self.number(token.word) {
                lexes.append(Lex(sense: .number(value), first: i, last: i))
                i += 1
                continue
            }
            if let candidates = phrases[token.word] {
                var matched = false
                for (parts, sense) in candidates where i + parts.count <= tokens.count {
                    var ok = true
                    for k in 1..<parts.count where tokens[i + k].isPunctuation || tokens[i + k].word != parts[k] {
                        ok = false
                        break
                    }
                    if ok {
                        lexes.append(Lex(sense: sense, first: i, last: i + parts.count - 1))
                        i += parts.count
                        matched = true
                        break
                    }
                }
                if matched { continue }
            }
            if let sense = words[token.word] {
                if case .number(let tens) = sense, tens >= 20, tens < 100, i + 1 < tokens.count,
                   case .number(let ones)? = words[tokens[i + 1].word], ones >= 1, ones <= 9 {
                    lexes.append(Lex(sense: .number(tens + ones), first: i, last: i + 1))
                    i += 2
                    continue
                }
                lexes.append(Lex(sense: sense, first: i, last: i))
            } else {
                lexes.append(Lex(sense: .unknown(token.word), first: i, last: i))
            }
            i += 1
        }
        return lexes
    }

    /// "12", "1.5", or a fraction "1/2".
    private static func number(_ word: String) -> Double? {
        if let value = Double(word) { return value }
        let parts = word.split(separator: "/")
        guard parts.count == 2, let a = Double(parts[0]), let b = Double(parts[1]), b > 0 else { return nil }
        return a / b
    }

    private static func clock(_ word: String) -> Sense? {
        let b = Array(word.utf8)
        guard b.count == 4 || b.count == 5, b[b.count - 3] == 58 else { return nil }
        var hour = 0
        for c in b[..<(b.count - 3)] {
            guard c >= 48, c <= 57 else { return nil }
            hour = hour * 10 + Int(c - 48)
        }
        guard b[b.count - 2] >= 48, b[b.count - 2] <= 57, b[b.count - 1] >= 48, b[b.count - 1] <= 57 else { return nil }
        let minute = Int(b[b.count - 2] - 48) * 10 + Int(b[b.count - 1] - 48)
        guard hour < 24, minute < 60 else { return nil }
        return .clock(hour: hour, minute: minute)
    }
}
