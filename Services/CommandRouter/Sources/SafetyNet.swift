import Foundation

/// The check every interpretation passes, the built-in interpreter's and the model's: a second,
/// simpler reading of the words that only asks which way each verb points, a new restriction or
/// lifting one, with its negation applied ("don't block" lifts, "don't let" restricts). An answer
/// that restricts where the words only lift ("cancel the block on YouTube" read as a block), that
/// allows where they only restrict, or any answer to words that point both ways ("unblock YouTube
/// and block TikTok"), becomes a question: a question is always better than the opposite.
enum SafetyNet {
    /// Which ways the words point.
    struct Reading: Equatable, Sendable {
        var restricts = false
        var lifts = false
        /// A "not"/"never" that no verb took: "Block YouTube, not TikTok", "Block games. Actually, don't.".
        var strayNegation = false
        /// Something left out: "Block everything except YouTube", "all apps but YouTube".
        var exception = false
        /// A minus sign before a number: "for -2 hours".
        var negativeAmount = false
        /// "Allow only YouTube": everything else blocked, which no allowance says.
        var onlyAllowed = false
        /// "Only homework apps", "nothing but YouTube" with no blocking verb: what is named is what
        /// stays, so a block of it is the opposite.
        var onlyKept = false
        /// "Extend the games block": more time on a block, which `extend` would give the child instead.
        var lengthensBlock = false
        /// Everything (or the device) named as what to block beside apps or categories: "block
        /// everything and TikTok", "lock the iPad and YouTube". A block of the apps alone leaves the rest open.
        var wholeDeviceNamed = false
        /// Time taken away from what the child has: "take away 10 minutes of screen time", "cut 15
        /// minutes from his screen time", "cut down on games". A block of that length from now is not that.
        var takesTimeAway = false
        /// An amount that is all the child may have: "30 minutes of Roblox, no more" (a daily allowance).
        var capsAmount = false
        /// A change of mind in the message: "block YouTube, no wait, TikTok", "… actually TikTok".
        var correction = false
        /// "From now on", "for good", "permanently": a schedule that should repeat, not happen once.
        var lasting = false
        /// How long the child has already had: "he's been on the Xbox for 5 hours, turn it off", "she's
        /// been on it all day". Not how long a block should last.
        var timeAlreadySpent = false
        /// "Screen time" switched on or off: Apple's Screen Time (its limits) or the child's time on
        /// screens? "Turn off screen time" may lift every limit or block everything.
        var switchesScreenTime = false
    }

    /// `interpretation` if it agrees with `reading`, the words' ``read(_:tokens:)``; otherwise a question.
    static func check(_ interpretation: Interpretation, reading: Reading) -> Interpretation {
        guard case .command(let command, _) = interpretation, command.action != .warning else { return interpretation }
        let target = targetName(command)
        if reading.negativeAmount {
            return .clarify(question: "A length of time can't be negative. For how long?")
        }
        if reading.exception {
            return .clarify(question: "I can't leave anything out of a block or an allowance. I can block or allow everything, a category (games, social media, videos) or apps by name: which should I do?")
        }
        if reading.onlyAllowed && command.action == .allow {
            return .clarify(question: "I can't allow only some apps and block the rest. I can block everything, a category (games, social media, videos) or apps by name, or set a social-only or homework schedule: which should I do?")
        }
        let namesTargets = !(command.apps ?? []).isEmpty || !(command.categories ?? []).isEmpty
        if reading.onlyKept, command.action == .shutdown || command.action == .blockApp, namesTargets {
            return .clarify(question: "Should \(target) be all that stays allowed? I can't block everything but some apps; I can block everything, a category (games, social media, videos) or apps by name, or set a social-only or homework schedule: which should I do?")
        }
        if reading.lengthensBlock && command.action == .extend {
            return .clarify(question: "I can't make a block last longer. Should I block \(target) for a time from now, or give more time?")
        }
        if reading.lasting, let schedule = command.schedule, (schedule.repeat ?? ParentCommand.Schedule.Repeat.none) == ParentCommand.Schedule.Repeat.none, command.action == .schedule {
            return .clarify(question: "Should it repeat every day, on school nights or on weekends?")
        }
        if reading.timeAlreadySpent, command.durationSeconds != nil || command.until != nil {
            return .clarify(question: "Is that how long they have already been on it? I can only start from now: for how long should I \(command.action == .allow ? "allow" : command.action == .extend ? "give more time on" : "block") \(target)?")
        }
        if reading.switchesScreenTime {
            return .clarify(question: "Do you mean the Screen Time limits, or their time on screens? Say which, for example “Block everything for 2 hours” or “Remove all restrictions”.")
        }
        if reading.correction {
            return .clarify(question: "You changed your mind in that message. Could you send just what I should do?")
        }
        if reading.capsAmount {
            return .clarify(question: "I can't set a daily allowance. I can block \(target) now for a time or until a time: which do you want?")
        }
        if reading.takesTimeAway, command.action != .extend {
            return .clarify(question: "I can't take time away. Should I block \(target) for a time from now, or set a schedule?")
        }
        if reading.wholeDeviceNamed, command.action == .shutdown || command.action == .blockApp, namesTargets {
            return .clarify(question: "Should I block everything, or only \(target)?")
        }
        if reading.lifts && reading.restricts {
            return .clarify(question: "You asked me both to lift a block and to add one. Which should I do: block \(target), or allow it?")
        }
        switch command.action {
        case .shutdown, .blockApp, .schedule:
            if reading.lifts {
                return .clarify(question: "Your words sound like lifting a block, not adding one. Should I allow \(target) (lift its block), or block it?")
            }
        case .allow:
            if reading.restricts {
                return .clarify(question: "Your words sound like adding a block, not lifting one. Should I block \(target), or allow it?")
            }
        case .extend:
            // "YouTube stays blocked for 2 more hours", "give her an hour off screens": time without, not more time.
            if reading.restricts && !reading.lifts {
                return .clarify(question: "Your words sound like a block, not more time. Should I block \(target) for that time, or give more time?")
            }
        case .warning:
            break
        }
        if reading.strayNegation {
            return .clarify(question: "I'm not sure what the “not” applies to. Could you say what to block and what to allow in separate messages?")
        }
        return interpretation
    }

    private static func targetName(_ command: ParentCommand) -> String {
        if let apps = command.apps, !apps.isEmpty {
            return apps.map { AppCatalog.standard.displayName(for: $0) }.joined(separator: " and ")
        }
        if let categories = command.categories, !categories.isEmpty {
            return categories.map(\.rawValue).joined(separator: " and ")
        }
        return "the device"
    }

    /// Verbs and nouns that put a block in place, and that name a block to lift.
    private static let blocking: Set<Key> = [.block, .shutdown, .lock, .pause, .shut, .cut]
    /// Verbs that lift a block when one is named after them ("cancel the ban", "take X off the block list").
    private static let lifting: Set<Key> = [.lift, .end, .undo, .remove, .take]

    /// Words saying a target named before them may stay: "WhatsApp is fine", "TikTok's OK".
    private static let acceptable: Set<String> = ["fine", "ok", "okay", "alright", "yes"]
    /// Words that take back what came before them: "no wait", "actually", "I mean".
    private static let retractions: Set<String> = ["wait", "actually", "sorry", "scratch"]
    /// Words saying free time, or a time, has ended: "free time is over", "end free time".
    private static let ending: Set<Key> = [.end, .stop, .undo, .over, .timeUp, .done, .no]

    /// Which ways the words point, clause by clause (a clause ends at punctuation, "and", "but", "then").
    /// `tokens` are the words the lexes were read from.
    static func read(_ lexes: [Lex], tokens: [Token]) -> Reading {
        var reading = Reading()
        var negated = false
        var clauseStart = 0
        var consumed = Set<Int>()
        func key(_ i: Int) -> Key? { i < lexes.count ? lexes[i].key : nil }
        func isBoundary(_ i: Int) -> Bool {
            if case .punctuation = lexes[i].sense { return true }
            return key(i) == .and || key(i) == .but || key(i) == .then || key(i) == .or
        }
        func clauseEnd(_ i: Int) -> Int {
            var j = i + 1
            while j < lexes.count, !isBoundary(j) { j += 1 }
            return j
        }
        func clauseHas(_ i: Int, _ keys: Set<Key>, after: Bool) -> Int? {
            let range = after ? (i + 1)..<clauseEnd(i) : clauseStart..<i
            return range.first { lexes[$0].key.map(keys.contains) ?? false }
        }
        /// A block word used as a noun later in `i`'s clause ("the ban").
        func blockWord(after i: Int) -> Int? {
            ((i + 1)..<clauseEnd(i)).first { j in key(j).map(blocking.contains) == true && Lex.namesABlock(lexes, j) }
        }
        /// A block word used as a noun later in `i`'s clause ("the ban"), or a restriction word
        /// right after the verb at `i` ("disable the games limit", "turn off his screen time limits").
        func blockNoun(after i: Int) -> Int? {
            if let noun = blockWord(after: i) { return noun }
            var j = i + 1
            while j < lexes.count, lexes[j].isBetweenVerbAndObject { j += 1 }
            return key(j) == .restrictions ? j : nil
        }
        /// A grounding, restrictions or homework time: what more of is more restriction ("a time limit" is not).
        func isRestrictionNotLimit(_ j: Int) -> Bool {
            if case .key(.scheduleKind(.educational)) = lexes[j].sense { return true }
            return key(j) == .restrictions && !words(j).contains("limit")
        }
        func clauseHasSchedule(_ i: Int) -> Bool {
            (clauseStart..<clauseEnd(i)).contains { if case .key(.scheduleKind) = lexes[$0].sense { return true }; return false }
        }
        func point(_ restricting: Bool) {
            if restricting != negated { reading.restricts = true } else { reading.lifts = true }
            negated = false
        }
        func isTarget(_ i: Int) -> Bool {
            switch lexes[i].sense {
            case .app, .category, .key(.everything): true
            default: false
            }
        }
        /// Whether the everything or device word at `i` is what is acted on, not where ("games on the iPad").
        func isWholeDeviceObject(_ i: Int) -> Bool {
            guard key(i) == .everything || key(i) == .device else { return false }
            var j = i - 1
            while j >= 0, [.article, .possessive, .him, .her, .speaker].contains(key(j)) || { if case .name = lexes[j].sense { return true }; return false }() { j -= 1 }
            return !(j >= 0 && [.on, .inside, .from, .at, .of, .with, .forWord, .except, .but, .only, .off, .to, .away, .out].contains(key(j)))
        }
        reading.wholeDeviceNamed = lexes.indices.contains(where: isWholeDeviceObject)
        // "turn off screen time", "disable screen time", "switch screen time on"
        let switching: Set<String> = ["turn", "switch", "enable", "disable", "activate", "deactivate", "toggle"]
        reading.switchesScreenTime = lexes.indices.contains { i in
            guard key(i) == .everything, words(i) == "screen time" else { return false }
            var start = i
            while start > 0, !isBoundary(start - 1) { start -= 1 }
            return (start..<clauseEnd(i)).contains { switching.contains(tokens[lexes[$0].first].word) }
        }
        func isUnit(_ j: Int) -> Bool { if case .key(.unit) = lexes[j].sense { return true }; return false }
        func words(_ j: Int) -> String { (lexes[j].first...lexes[j].last).map { tokens[$0].word }.joined(separator: " ") }
        // "take away 10 minutes of screen time", "take 10 minutes off", "cut it by 30 mins", "cut down on games":
        // a length of time, or an amount, as what is taken
        reading.takesTimeAway = lexes.indices.contains { i in
            guard let k = key(i), [.take, .cut, .remove, .turn].contains(k) else { return false }
            if k == .cut || k == .turn, key(i + 1) == .down || (k == .cut && key(i + 1) == .back) { return true }
            if k == .turn { return false }
            return ((i + 1)..<clauseEnd(i)).contains { j in
                // "by 30 mins", "by an hour" (an amount; "by 9" is a time)
                (isUnit(j) && [.of, .from, .off].contains(key(j + 1))) || (key(j) == .by && j + 2 < lexes.count && isUnit(j + 2)
                    && { if case .number = lexes[j + 1].sense { return true }; return key(j + 1) == .a }())
                    || (k == .cut && key(j) == .everything && words(j) == "screen time")
            }
        }
        // "another day of grounding", "30 more minutes of homework time": more of the restriction
        if lexes.indices.contains(where: { j in
            guard isUnit(j), key(j + 1) == .of else { return false }
            var k = j + 2
            while k < lexes.count, [.article, .possessive, .him, .her].contains(key(k)) { k += 1 }
            return k < lexes.count && isRestrictionNotLimit(k)
        }) {
            reading.lengthensBlock = true
        }
        // "30 minutes of Roblox, no more": "no more" ending a clause, after an amount of time
        reading.capsAmount = lexes.indices.contains { i in
            key(i) == .no && key(i + 1) == .more && (i + 2 >= lexes.count || isBoundary(i + 2)) && lexes.indices.contains(where: isUnit)
        }
        let written = tokens.map(\.word)
        reading.lasting = written.contains("permanently") || written.contains("forever")
            || written.indices.contains { i in
                (i + 2 < written.count && written[i] == "from" && written[i + 1] == "now" && written[i + 2] == "on")
                    || (i + 1 < written.count && written[i] == "for" && written[i + 1] == "good")
            }
        // "he's been on the Xbox for 5 hours", "she's been on it all day": time already spent, in the
        // clause of "been"/"spent"
        reading.timeAlreadySpent = lexes.indices.contains { i in
            guard ["been", "spent"].contains(tokens[lexes[i].first].word) else { return false }
            return ((i + 1)..<clauseEnd(i)).contains { j in isUnit(j) || key(j) == .restOfDay || key(j) == .today }
        }
        // "block YouTube, no wait, TikTok": a retraction after something to act on, set off by a pause
        // or a "no" ("her games can wait until …" is no retraction)
        reading.correction = lexes.indices.contains { i in
            let word = tokens[lexes[i].first].word
            let paused = i > 0 && (isBoundary(i - 1) || ["no", "oh", "um", "er"].contains(tokens[lexes[i - 1].last].word))
            let retracts = (retractions.contains(word) && paused) || (word == "i" && i + 1 < lexes.count && tokens[lexes[i + 1].first].word == "mean")
            return retracts && (0..<i).contains(where: isTarget)
        }
        // "remove YouTube from bedtime": an app left out of a schedule, which no command says
        if lexes.indices.contains(where: { i in
            guard let k = key(i), [.remove, .take, .cut].contains(k) || tokens[lexes[i].first].word == "drop" else { return false }
            return ((i + 1)..<clauseEnd(i)).contains { j in
                [.from, .out].contains(key(j)) && ((j + 1)..<min(j + 4, lexes.count)).contains { if case .key(.scheduleKind) = lexes[$0].sense { return true }; return false }
            }
        }) {
            reading.exception = true
        }
        for i in lexes.indices {
            // "WhatsApp is fine": what is named may be used ("Block everything, WhatsApp is fine" points both ways).
            if case .key(.filler) = lexes[i].sense, acceptable.contains(tokens[lexes[i].first].word),
               (clauseStart..<i).contains(where: isTarget) {
                point(false)
            }
            // "YouTube off, TikTok on": a target switched on, no verb of its own
            if key(i) == .on, i > 0, isTarget(i - 1), i + 1 >= lexes.count || isBoundary(i + 1) || isTarget(i + 1) {
                point(false)
            }
            if key(i) == .except {
                reading.exception = true
            } else if key(i) == .but, (0..<i).contains(where: isTarget) || (i > 0 && ["all", "them", "everything"].contains(tokens[lexes[i - 1].last].word)) {
                // "all apps but YouTube": a target right after "but", no verb of its own
                let next = ((i + 1)..<lexes.count).first { key($0) != .article }
                if let next, isTarget(next) { reading.exception = true }
            }
            if case .punctuation("-") = lexes[i].sense, i + 1 < lexes.count, case .number = lexes[i + 1].sense {
                let range: Bool
                switch i > 0 ? lexes[i - 1].sense : nil {
                case .number?, .clock?, .key(.am)?, .key(.pm)?: range = true  // "9pm-7am" is a range too
                default: range = false
                }
                if !range { reading.negativeAmount = true }
            }
            if isBoundary(i) {
                if negated { reading.strayNegation = true }
                negated = false
                clauseStart = i + 1
                continue
            }
            guard let k = lexes[i].key, !consumed.contains(i) else { continue }
            switch k {
            case .not:
                // "don't not let him": which way two negations point is a guess
                if negated { reading.strayNegation = true }
                negated = true
            case .no:
                let next = ((i + 1)..<clauseEnd(i)).first { key($0) != .more && key($0) != .article }
                if let next, let nk = key(next), blocking.contains(nk) {
                    negated = true
                } else if let next, key(next) == .restrictions {
                    point(false)
                } else if next != nil || (clauseStart..<i).contains(where: isTarget) {
                    // "no games"; "TikTok no."
                    point(true)
                }
            case .stop:
                // "stop blocking", "stop turning off": the block is what stops; "stop the ban" lifts it;
                // "stop letting him play" restricts
                if let next = key(i + 1), next == .letVerb || next == .allow {
                    consumed.insert(i + 1)
                    point(true)
                } else if let next = key(i + 1), blocking.contains(next) || next == .turn {
                    negated = true
                } else if let object = clauseHas(i, blocking, after: true) ?? blockNoun(after: i) {
                    consumed.insert(object)
                    point(false)
                } else {
                    point(true)
                }
            case _ where blocking.contains(k):
                // "disable the YouTube ban": the verb lifts the block named after it
                if !Lex.namesABlock(lexes, i), let noun = blockNoun(after: i) {
                    consumed.insert(noun)
                    point(false)
                } else {
                    point(true)
                }
            case .freeTime:
                // "free time is over", "end free time": the free time is what ends; "screen-free time" is time without
                var before = i - 1
                while before >= 0, lexes[before].sense == .punctuation("-") { before -= 1 }
                if before >= 0, key(before) == .everything || key(before) == .device {
                    point(true)
                } else if (clauseStart..<clauseEnd(i)).contains(where: { key($0).map(ending.contains) == true }) {
                    (clauseStart..<clauseEnd(i)).filter { key($0).map(ending.contains) == true }.forEach { consumed.insert($0) }
                    point(true)
                } else {
                    point(false)
                }
            case .unblock:
                // "restore restrictions", "resume her limits": the limits are what come back
                var j = i + 1
                while j < lexes.count, lexes[j].isBetweenVerbAndObject { j += 1 }
                if key(j) == .restrictions {
                    consumed.insert(j)
                    point(true)
                } else {
                    point(false)
                }
            case _ where lifting.contains(k):
                let end = clauseEnd(i)
                if let object = ((i + 1)..<end).first(where: { key($0).map { blocking.contains($0) || $0 == .restrictions } ?? false }) {
                    consumed.insert(object)
                    point(false)
                } else if k == .lift || k == .undo {
                    point(false)
                } else if k == .remove || (k == .take && clauseHas(i, [.away, .off, .out], after: true) != nil) {
                    point(true)
                }
            case .turn:
                guard !clauseHasSchedule(i) else { continue }
                if clauseHas(i, [.off, .out, .down], after: true) != nil {
                    if let noun = blockNoun(after: i) {
                        consumed.insert(noun)
                        point(false)
                    } else {
                        point(true)
                    }
                } else if clauseHas(i, [.on, .back], after: true) != nil {
                    // "turn the YouTube block back on" restricts again
                    if let noun = blockNoun(after: i) {
                        consumed.insert(noun)
                        point(true)
                    } else {
                        point(false)
                    }
                }
            case .allow, .letVerb:
                // Neither: "let's", more time ("allow him 15 more minutes"), a schedule ("allow social media only")
                if k == .letVerb, key(i + 1) == .speaker { continue }
                // "enable parental controls", "allow the YouTube block": the limits are what is turned on
                if k == .allow, let noun = blockNoun(after: i) {
                    consumed.insert(noun)
                    point(true)
                    continue
                }
                if clauseHasSchedule(i) || ((clauseStart..<clauseEnd(i)).contains {
                    [.more, .another, .longer, .stay, .extend, .only].contains(key($0))
                }) { continue }
                point(false)
            case .give, .get, .have, .stay:
                // "give her an hour off screens", "games stay off until 8": time without, a restriction
                if k != .stay, clauseHas(i, [.back], after: true) != nil {
                    point(false)
                } else if let off = clauseHas(i, [.off], after: true) {
                    consumed.insert(off)
                    point(true)
                }
            case .add, .grant, .extend:
                // not "extend the time limit": more time within a limit is what `extend` gives; but a
                // longer grounding, restriction or homework time is more of the restriction
                if blockWord(after: i) != nil || ((i + 1)..<clauseEnd(i)).contains(where: isRestrictionNotLimit) {
                    reading.lengthensBlock = true
                }
            case .use:
                // "TikTok has to go" takes it away; "he can go on YouTube" lets him
                if tokens[lexes[i].first].word == "go", (clauseStart..<i).contains(where: isTarget),
                   !((i + 1)..<clauseEnd(i)).contains(where: isTarget) {
                    point(true)
                } else if clauseHas(i, [.modal, .want], after: false) != nil {
                    point(false)
                }
            default:
                break
            }
        }
        if negated { reading.strayNegation = true }
        let schedules = lexes.contains { if case .key(.scheduleKind) = $0.sense { return true }; return false }
        let only = lexes.indices.contains { key($0) == .only }
        reading.onlyKept = only && !reading.restricts && !schedules
        // "he can only use YouTube", "allow just YouTube": what is named is all that stays
        let just = lexes.indices.contains { i in tokens[lexes[i].first].word == "just" && i + 1 < lexes.count && isTarget(i + 1) }
        reading.onlyAllowed = (only || just)
            && lexes.indices.contains { key($0) == .allow || key($0) == .letVerb || (key($0) == .use && clauseHas($0, [.modal], after: false) != nil) }
            && !schedules
        return reading
    }
}
