import Mustache

/// How the console's templates escape `{{value}}`: `& < > " '` as entities and control characters
/// as U+FFFD, scalar by scalar (swift-mustache's own HTML type compares characters, so a quote
/// followed by a combining mark would pass it unescaped).
struct ConsoleHTML: MustacheContentType {
    static let name = "CONSOLE_HTML"

    func escapeText(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\u{0}"..."\u{8}", "\u{B}", "\u{C}", "\u{E}"..."\u{1F}", "\u{7F}": out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
