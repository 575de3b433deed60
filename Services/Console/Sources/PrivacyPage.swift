import GuardianShared

/// A child's data: download everything Guardian holds as a file, or erase it everywhere after
/// a confirmation (privacy requests as the parent, answered by every running service).
enum PrivacyPage {
    static func body(children: [Family.Child], csrf: String) -> String {
        guard !children.isEmpty else { return "<h1>Your children’s data</h1><p>No family lists you as a parent yet.</p>" }
        let rows = children.map { child -> String in
            let id = HTML.escape(child.deviceId), name = HTML.escape(child.name)
            return """
                <li class="card"><h2>\(name) <span class="device">(\(id))</span></h2>
                <form method="post" action="/privacy/export">\(field(csrf))<input type="hidden" name="child" value="\(id)">
                <button type="submit">Download \(name)’s data</button></form>
                <p><a href="/privacy/erase?child=\(id)" class="danger">Erase \(name)’s data…</a></p></li>
                """
        }
        return """
            <h1>Your children’s data</h1>
            <p>Guardian keeps each kind of data only as long as it is useful. You can take a copy of everything it
            holds about a child’s device, as one JSON file, or erase all of it, in every service.</p>
            <ul class="cards">\(rows.joined())</ul>
            """
    }

    static func confirmErase(child: Family.Child, csrf: String) -> String {
        let id = HTML.escape(child.deviceId), name = HTML.escape(child.name)
        return """
            <h1>Erase \(name)’s data?</h1>
            <p class="warning" role="alert"><strong>This cannot be undone.</strong> Every service forgets \(name)’s device (\(id)):
            locations, days and corrections, app use and rules, notifications and preferences. The device also leaves
            the family: an administrator must add it again.</p>
            <form method="post" action="/privacy/erase">\(field(csrf))<input type="hidden" name="child" value="\(id)">
            <p class="check"><input type="checkbox" id="confirm" name="confirm" value="\(id)" required>
            <label for="confirm">Yes, erase everything Guardian holds about \(name)</label></p>
            <button type="submit" class="danger">Erase \(name)’s data</button> <a href="/privacy">Cancel</a></form>
            """
    }

    static func receipts(_ outcome: PrivacyExchange.Outcome, child: String) -> String {
        var html = "<h1>Erase \(HTML.escape(child))</h1>"
        let allDone = outcome.missing.isEmpty && outcome.refused.isEmpty && !outcome.receipts.isEmpty
        html += allDone
            ? "<p class=\"ok\" role=\"status\">Done: every service erased what it held.</p>"
            : "<p class=\"failed\" role=\"alert\">Not every service confirmed. Ask again once they are all running.</p>"
        html += "<table><caption>Answers</caption><thead><tr><th scope=\"col\">Service</th><th scope=\"col\">Answer</th><th scope=\"col\">Erased</th></tr></thead><tbody>"
        for instance in (Array(outcome.receipts.keys) + outcome.missing).sorted() {
            let receipt = outcome.receipts[instance]
            let status = receipt.map { $0.status == .done ? "done" : "refused: \($0.reason ?? "")" } ?? "no answer in time"
            let erased = receipt?.erased.map { $0.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") } ?? ""
            html += "<tr><td>\(HTML.escape(instance.service))/\(HTML.escape(instance.instance))</td><td>\(HTML.escape(status))</td><td>\(HTML.escape(erased.isEmpty ? "nothing held" : erased))</td></tr>"
        }
        return html + "</tbody></table><p><a href=\"/\">Back to the family</a></p>"
    }

    private static func field(_ csrf: String) -> String { "<input type=\"hidden\" name=\"csrf\" value=\"\(HTML.escape(csrf))\">" }
}
