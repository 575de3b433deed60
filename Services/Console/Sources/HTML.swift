import GuardianShared

/// HTML building: every value that came from outside (ids, names, messages, replies) goes through
/// `escape`, and every page shares one layout with its CSS and script from the console itself.
enum HTML {
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\u{0}"..."\u{8}", "\u{B}", "\u{C}", "\u{E}"..."\u{1F}", "\u{7F}": out += "\u{FFFD}"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    /// The pages of the signed-in console, for the navigation.
    enum Place: String, CaseIterable {
        case family = "/", day = "/day", privacy = "/privacy"

        var label: String {
            switch self {
            case .family: "Family"
            case .day: "Day"
            case .privacy: "Privacy"
            }
        }
    }

    /// A whole page. A page with `live` (the stream's URL) opens the server-sent event stream.
    static func page(title: String, session: ParentSession?, place: Place? = nil, live: String? = nil, body: String) -> String {
        var header = "<header><span class=\"brand\">Guardian</span>"
        if let session {
            header += "<nav aria-label=\"Console\"><ul>"
            for item in Place.allCases {
                let current = item == place ? " aria-current=\"page\"" : ""
                header += "<li><a href=\"\(item.rawValue)\"\(current)>\(item.label)</a></li>"
            }
            header += "</ul></nav><form method=\"post\" action=\"/signout\" class=\"signout\">\(csrfField(session))"
            header += "<span class=\"who\">Signed in as \(escape(session.parent))</span> <button type=\"submit\">Sign out</button></form>"
        }
        header += "</header>"
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(escape(title)) · Guardian</title>
            <link rel="icon" href="data:,">
            <link rel="stylesheet" href="/static/console.css">
            <script src="/static/console.js" defer></script>
            </head><body\(live.map { " data-live=\"\(escape($0))\"" } ?? "")>
            <a class="skip" href="#main">Skip to content</a>
            \(header)
            <main id="main">
            \(body)
            </main>
            <p class="live-state" id="live-state" role="status" aria-live="polite"></p>
            </body></html>
            """
    }

    static func csrfField(_ session: ParentSession) -> String {
        "<input type=\"hidden\" name=\"csrf\" value=\"\(escape(session.csrfToken))\">"
    }

    /// An instant the page's script shows in the browser's time zone (UTC without script).
    static func time(_ ts: Timestamp) -> String {
        let text = ts.rfc3339
        let clock = text.dropFirst(11).prefix(5)
        return "<time datetime=\"\(text)\">\(text.prefix(10)) \(clock) UTC</time>"
    }

    /// "3 min", "1 h 59 min", "2 days".
    static func span(seconds: Int64) -> String {
        let s = max(seconds, 0)
        if s < 60 { return "\(s) s" }
        if s < 3600 { return "\(s / 60) min" }
        if s < 86_400 { return s % 3600 / 60 == 0 ? "\(s / 3600) h" : "\(s / 3600) h \(s % 3600 / 60) min" }
        return "\(s / 86_400) day\(s / 86_400 == 1 ? "" : "s")"
    }

    static func errorPage(_ error: ConsoleError, session: ParentSession?) -> String {
        page(
            title: "Problem", session: session,
            body: "<h1>Something went wrong</h1><p class=\"problem\" role=\"alert\">\(escape(error.description))</p><p><a href=\"/\">Back to the family</a></p>")
    }
}
