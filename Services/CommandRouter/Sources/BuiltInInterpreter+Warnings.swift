import Foundation

/// The warning grammar: a verb that sends words to the child, who it is for, and the words.
///
///     warn [CHILD] [that|:|-] MESSAGE            notify/alert/text likewise
///     send [CHILD] [a] warning|message [to CHILD] [that|saying|:|-] MESSAGE
///     warning|message [to CHILD] (:|-|that) MESSAGE
///     tell CHILD [that] MESSAGE  |  tell CHILD to IMPERATIVE
///     let CHILD know [that] MESSAGE
///     remind CHILD (to IMPERATIVE | [that|about] MESSAGE)
///     [give CHILD | send] a N-minute warning      → "N minutes left"
///
/// The message is the parent's own text from where it starts, with the child's third person turned
/// into the second ("his time is up" → "Your time is up").
struct WarningGrammar {
    enum Child { case name(String), pronoun(String), plural }

    let lexes: [Lex]
    let tokens: [Token]
    let text: String
    let lo: Int
    /// The end of the message: the message keeps words the command grammar would trim ("now").
    let hi: Int

    private func key(_ i: Int) -> Key? { i >= lo && i < hi ? lexes[i].key : nil }
    private func word(_ i: Int) -> String? { i >= lo && i < hi ? tokens[lexes[i].first].word : nil }
    private func mark(_ i: Int) -> String? {
        if i >= lo, i < hi, case .punctuation(let m) = lexes[i].sense { return m }
        return nil
    }

    enum Outcome {
        case warning(message: String, child: Child?)
        case clarify(String)
    }

    /// nil when the words are not a warning.
    func parse() -> Outcome? {
        var j = lo
        var negated = false
        while key(j) == .aux || key(j) == .not || key(j) == .filler {
            if key(j) == .not { negated = true }
            j += 1
        }
        var child: Child?
        var imperative = false
        var forbidding = false
        /// "to …" (what to do) or "not to …" (what not to: "Don't …").
        func readImperative() {
            if key(j) == .to {
                j += 1
                imperative = true
            } else if key(j) == .not, key(j + 1) == .to {
                j += 2
                imperative = true
                forbidding = true
            }
        }
        switch key(j) {
        case .warn?, .notify?:
            j += 1
            child = self.child(&j)
            readImperative()
        case .send?:
            j += 1
            child = self.child(&j)
            if let message = countWarning(at: j) {
                return negated ? refuse() : .warning(message: message, child: child)
            }
            while key(j) == .a || key(j) == .article { j += 1 }
            guard key(j) == .warningNoun else { return nil }
            j += 1
            if key(j) == .to {
                j += 1
                child = self.child(&j) ?? child
            }
            if word(j) == "telling" {
                j += 1
                child = self.child(&j) ?? child
            }
        case .warningNoun? where j == lo:
            j += 1
            if key(j) == .to { j += 1 }
            child = self.child(&j)
            guard mark(j) == ":" || mark(j) == "-" || word(j) == "that" || child != nil else { return nil }
        case .tell?:
            j += 1
            child = self.child(&j)
            readImperative()
        case .letVerb?:
            j += 1
            child = self.child(&j)
            guard key(j) == .know else { return nil }
            j += 1
        case .remind?:
            j += 1
            child = self.child(&j)
            if key(j) == .to {
                j += 1
                imperative = true
            } else if word(j) == "about" {
                j += 1
            }
        case .give?:
            j += 1
            child = self.child(&j)
            guard let message = countWarning(at: j) else { return nil }
            return negated ? refuse() : .warning(message: message, child: child)
        default:
            if j == lo, let message = countWarning(at: j) { return .warning(message: message, child: nil) }
            return nil
        }
        if negated { return refuse() }
        // "tell me when he goes on Fortnite", "alert me if …": words for the parent, never sent to the child
        if child == nil, let w = word(j), w == "me" || w == "us" {
            return .clarify("A warning goes to the child; I can't send you messages or reminders. What should I do?")
        }
        // "tell Mia and Sam …": one child at a time, or all of them
        if case .name? = child, key(j) == .and {
            return .clarify("I can warn one child by name, or all of them. Who should get it?")
        }
        // "warn him then block YouTube": a block after the warning is no part of its words
        let blocking: Set<Key> = [.block, .shutdown, .lock, .pause, .shut, .turn, .cut, .take, .stop, .remove]
        if (j..<hi).contains(where: { i in
            guard key(i) == .then || key(i) == .and else { return false }
            var k = i + 1
            while key(k) == .then || key(k) == .filler { k += 1 }
            return key(k).map(blocking.contains) == true
        }) {
            return .clarify("I can send the warning, or block, one at a time. Which should I do first?")
        }
        while let m = mark(j), m == ":" || m == "-" || m == "," { j += 1 }
        if !imperative, let w = word(j), ["that", "saying", "says", "reading", "which"].contains(w) {
            j += w == "which" && word(j + 1) == "says" ? 2 : 1
        }
        while let m = mark(j), m == ":" || m == "-" { j += 1 }
        guard j < hi else { return .clarify("What should the warning say?") }
        let start = tokens[lexes[j].first].range.lowerBound
        let end = tokens[lexes[hi - 1].last].range.upperBound
        var message = String(text[start..<end]).trimmingCharacters(in: .whitespacesAndNewlines)
        while let last = message.last, last == "." || last == "!" || last == "," { message.removeLast() }
        if forbidding { message = "don't " + message }
        message = Self.addressed(message)
        // "tell him off": no words to pass on
        guard !message.isEmpty, message.lowercased() != "off" else { return .clarify("What should the warning say?") }
        guard message.count <= ParentCommand.maxMessageLength else {
            return .clarify("That message is too long: a warning can hold \(ParentCommand.maxMessageLength) characters. Can you shorten it?")
        }
        return .warning(message: message, child: child)
    }

    private func refuse() -> Outcome {
        .clarify("I can send a warning, but not cancel one. What would you like me to do?")
    }

    private func child(_ j: inout Int) -> Child? {
        guard j < hi else { return nil }
        switch lexes[j].sense {
        case .name:
            let token = tokens[lexes[j].first]
            j += 1
            return .name(String(text[token.range].prefix(token.word.count)))
        case .key(.him):
            j += 1
            return .pronoun("him")
        case .key(.her):
            j += 1
            return .pronoun("her")
        case .key(.kids), .key(.article):
            // "both kids", "the kids", "them", "both of them"; an article names no one before other words
            if key(j) == .article, key(j + 1) != .kids, word(j) != "them" { return nil }
            j += 1
            while key(j) == .kids || word(j) == "of" || word(j) == "them" { j += 1 }
            return .plural
        case .unknown("each") where word(j + 1) == "of":
            j += 2
            if word(j) == "them" || key(j) == .kids { j += 1 }
            return .plural
        default:
            return nil
        }
    }

    /// `[a] N minute warning` → "N minutes left".
    private func countWarning(at start: Int) -> String? {
        var j = start
        if key(j) == .a { j += 1 }
        guard j < hi, case .number(let n) = lexes[j].sense, n > 0, n <= 1000, n == n.rounded(),
              case .unit(let unit)? = key(j + 1), key(j + 2) == .warningNoun, j + 3 >= hi
        else { return nil }
        let name = unit == 1 ? "second" : unit == 60 ? "minute" : unit == 3600 ? "hour" : unit == 86_400 ? "day" : "week"
        let count = Int(n)
        return "\(count) \(name)\(count == 1 ? "" : "s") left"
    }

    /// The parent's words spoken to the child: he/she → you (with the verb agreeing), his → your,
    /// him → you; the first letter capitalised.
    static func addressed(_ message: String) -> String {
        var words = message.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        let objectFollowers: Set<String> = ["to", "at", "in", "on", "that", "and", "for", "about", "know", "now", "with", "up", "off", "out", "down", "back"]
        var i = 0
        while i < words.count {
            let (lead, core, trail) = split(words[i])
            let lower = core.lowercased()
            var replacement: String?
            switch lower {
            case "his": replacement = "your"
            case "him": replacement = "you"
            case "himself", "herself": replacement = "yourself"
            case "he's", "she's":
                // "he's got" is "you've got"
                let next = i + 1 < words.count ? split(words[i + 1]).1.lowercased() : ""
                replacement = next == "got" ? "you've" : "you're"
            case "he'll", "she'll": replacement = "you'll"
            case "he'd", "she'd": replacement = "you'd"
            case "he", "she":
                replacement = "you"
                // the verb agrees, also after an adverb: "he only has" → "you only have"
                var v = i + 1
                if v < words.count, trail.isEmpty, ["only", "just", "still", "really", "always", "never", "also", "already"].contains(split(words[v]).1.lowercased()) { v += 1 }
                if v < words.count, trail.isEmpty {
                    let (nl, nextCore, nt) = split(words[v])
                    words[v] = nl + agree(nextCore) + nt
                }
            case "her":
                let next = i + 1 < words.count && trail.isEmpty ? split(words[i + 1]).1.lowercased() : ""
                replacement = next.isEmpty || objectFollowers.contains(next) ? "you" : "your"
            default: break
            }
            if let replacement {
                let cased = core.first?.isUppercase == true ? replacement.prefix(1).uppercased() + replacement.dropFirst() : replacement
                words[i] = lead + cased + trail
            }
            i += 1
        }
        var result = words.joined(separator: " ")
        if let first = result.first, first.isLowercase {
            result = first.uppercased() + result.dropFirst()
        }
        return result
    }

    private static func split(_ word: String) -> (String, String, String) {
        let scalars = Array(word)
        var a = 0, b = scalars.count
        while a < b, !scalars[a].isLetter, !scalars[a].isNumber { a += 1 }
        while b > a, !scalars[b - 1].isLetter, !scalars[b - 1].isNumber { b -= 1 }
        return (String(scalars[..<a]), String(scalars[a..<b]), String(scalars[b...]))
    }

    private static func agree(_ verb: String) -> String {
        let irregular: [String: String] = [
            "is": "are", "was": "were", "has": "have", "does": "do", "doesn't": "don't", "isn't": "aren't",
            "wasn't": "weren't", "hasn't": "haven't", "goes": "go",
        ]
        let lower = verb.lowercased()
        if let form = irregular[lower] { return form }
        guard lower.count > 3, lower.hasSuffix("s"), !lower.hasSuffix("ss"), lower.allSatisfy(\.isLetter) else { return verb }
        if lower.hasSuffix("ches") || lower.hasSuffix("shes") || lower.hasSuffix("xes") || lower.hasSuffix("sses") {
            return String(verb.dropLast(2))
        }
        return String(verb.dropLast())
    }
}
