import Foundation

/// One word, number or punctuation mark of a parent's message, with where it came from.
struct Token: Sendable {
    /// Lowercased, apostrophes folded to `'`; for punctuation the mark itself.
    var word: String
    var range: Range<String.Index>
    var isPunctuation: Bool
    /// Written with an upper-case first letter (names, app names).
    var isCapitalized: Bool
}

extension BuiltInInterpreter {
    /// Splits `text` into tokens: letters and digits are separated ("8pm" → `8` `pm`, "1h30" →
    /// `1` `h` `30`), "8:30" and "1.5" stay whole, contractions are expanded ("don't" → `do` `not`,
    /// "Sam's" → `sam` `'s`), and every expanded token keeps the source range of its word.
    static func tokenize(_ text: String) -> [Token] {
        var tokens: [Token] = []
        tokens.reserveCapacity(16)
        let scalars = text.unicodeScalars
        var start: String.Index?
        var kind = 0  // 1 letters, 2 digits
        var index = scalars.startIndex

        func isLetter(_ s: Unicode.Scalar) -> Bool {
            s.isASCII ? ((s.value | 0x20) >= 97 && (s.value | 0x20) <= 122) : s.properties.isAlphabetic
        }
        func isDigit(_ s: Unicode.Scalar) -> Bool { s.value >= 48 && s.value <= 57 }
        func next(after i: String.Index) -> Unicode.Scalar? {
            let j = scalars.index(after: i)
            return j < scalars.endIndex ? scalars[j] : nil
        }
        func flush(upTo end: String.Index) {
            guard let s = start else { return }
            start = nil
            kind = 0
            emitWord(text, s..<end, into: &tokens)
        }
        func punctuation(_ mark: String, _ i: String.Index) {
            tokens.append(Token(word: mark, range: i..<scalars.index(after: i), isPunctuation: true, isCapitalized: false))
        }

        while index < scalars.endIndex {
            let s = scalars[index]
            if isLetter(s) {
                if kind == 2 { flush(upTo: index) }
                if start == nil { start = index }
                kind = 1
            } else if isDigit(s) {
                if kind == 1 { flush(upTo: index) }
                if start == nil { start = index }
                kind = 2
            } else if s == "'" || s == "\u{2019}" || s == "\u{2018}" {
                if kind == 1, let n = next(after: index), isLetter(n) {
                    // inside a word: don't, Sam's
                } else if kind == 0, let n = next(after: index), isLetter(n), n == "t" || n == "T" {
                    start = index  // 'til
                    kind = 1
                } else {
                    flush(upTo: index)
                }
            } else if s == "." {
                let n = next(after: index)
                let afterSpace = index == scalars.startIndex || scalars[scalars.index(before: index)].properties.isWhitespace
                if kind == 2, let n, isDigit(n) {
                } else if kind == 0, afterSpace, let n, isDigit(n) {
                    // ".5 hours" is half an hour, not five
                    start = index
                    kind = 2
                } else if kind == 1, let n, isLetter(n), let st = start, scalars.distance(from: st, to: index) == 1 {
                    // a.m, p.m
                } else {
                    flush(upTo: index)
                    punctuation(".", index)
                }
            } else if s == "/", kind == 2, let n = next(after: index), isDigit(n) {
                // 1/2
            } else if s == ":" {
                if kind == 2, let n = next(after: index), isDigit(n) {
                } else {
                    flush(upTo: index)
                    punctuation(":", index)
                }
            } else if s == "+" && kind == 1 {
                index = scalars.index(after: index)
                flush(upTo: index)
                continue
            } else if s == "&" || s == "+" {
                flush(upTo: index)
                tokens.append(Token(word: "and", range: index..<scalars.index(after: index), isPunctuation: false, isCapitalized: false))
            } else if s == "," || s == "!" || s == "?" || s == ";" {
                flush(upTo: index)
                punctuation(String(Character(s)), index)
            } else if s == "-" || s == "\u{2013}" || s == "\u{2014}" {
                let joinsWords = kind != 0 && next(after: index).map(isLetter) == true
                flush(upTo: index)
                if !joinsWords { punctuation("-", index) }
            } else {
                flush(upTo: index)
            }
            index = scalars.index(after: index)
        }
        flush(upTo: scalars.endIndex)
        return tokens
    }

    private static func emitWord(_ text: String, _ range: Range<String.Index>, into tokens: inout [Token]) {
        var word = text[range].lowercased()
        if word.contains("\u{2019}") || word.contains("\u{2018}") {
            word = word.replacingOccurrences(of: "\u{2019}", with: "'").replacingOccurrences(of: "\u{2018}", with: "'")
        }
        let first = text[range].unicodeScalars.first!
        let capitalized = first.properties.isUppercase
        func add(_ w: String) {
            tokens.append(Token(word: w, range: range, isPunctuation: false, isCapitalized: capitalized))
        }
        if let expansion = contractions[word] {
            expansion.forEach(add)
        } else if word.hasSuffix("'s") {
            add(String(word.dropLast(2)))
            add("'s")
        } else if word.contains("'") {
            add(word.replacingOccurrences(of: "'", with: ""))
        } else {
            add(word)
        }
    }

    private static let contractions: [String: [String]] = [
        "don't": ["do", "not"], "dont": ["do", "not"], "doesn't": ["does", "not"], "doesnt": ["does", "not"],
        "didn't": ["did", "not"], "didnt": ["did", "not"], "can't": ["can", "not"], "cant": ["can", "not"],
        "cannot": ["can", "not"], "won't": ["will", "not"], "wont": ["will", "not"], "isn't": ["is", "not"],
        "isnt": ["is", "not"], "aren't": ["are", "not"], "shouldn't": ["should", "not"], "wouldn't": ["would", "not"],
        "mustn't": ["must", "not"], "let's": ["let", "us"], "it's": ["it", "is"], "that's": ["that", "is"],
        "thats": ["that", "is"], "he's": ["he", "is"], "she's": ["she", "is"], "what's": ["what", "is"],
        "whats": ["what", "is"], "i'm": ["i", "am"], "im": ["i", "am"], "we're": ["we", "are"], "you're": ["you", "are"],
        "they're": ["they", "are"], "i'd": ["i", "would"], "o'clock": ["oclock"], "'til": ["till"], "'till": ["till"],
        "time's": ["time", "is"], "times": ["time", "is"], "there's": ["there", "is"], "we'll": ["we", "will"],
        "i'll": ["i", "will"], "he'll": ["he", "will"], "she'll": ["she", "will"],
        "needn't": ["need", "not"], "neednt": ["need", "not"], "hasn't": ["has", "not"], "hasnt": ["has", "not"],
        "haven't": ["have", "not"], "havent": ["have", "not"], "shouldnt": ["should", "not"], "wouldnt": ["would", "not"],
    ]
}
