import GuardianShared

/// Plain words for structured commands and restrictions, as a parent would say them.
enum CommandWording {
    static func describe(_ command: JSONObject) -> String {
        let action = command["action"]?.string ?? "command"
        let targets = list(command["apps"]) ?? list(command["categories"])
        var parts: [String]
        switch action {
        case "shutdown": parts = ["Block", targets ?? "everything"]
        case "block_app": parts = ["Block", targets ?? "the apps"]
        case "allow": parts = ["Allow", targets ?? "everything again"]
        default: parts = [action.replacingOccurrences(of: "_", with: " ").capitalizedFirst] + (targets.map { [$0] } ?? [])
        }
        if let seconds = command["durationSeconds"]?.number { parts.append("for \(span(seconds: Int64(seconds)))") }
        if let condition = command["condition"]?.string { parts.append("until \(condition) is done") }
        if let message = command["message"]?.string { parts.append("“\(message)”") }
        return parts.joined(separator: " ")
    }

    static func describe(_ restriction: PolicyInForce.Restriction) -> String {
        let what = list(restriction.apps.map { .array($0.map(JSONObject.string)) })
            ?? list(restriction.categories.map { .array($0.map(JSONObject.string)) }) ?? "everything"
        switch restriction.kind {
        case "shutdown": return "\(what.capitalizedFirst) blocked"
        case "block_app": return "\(what.capitalizedFirst) blocked"
        case "bedtime": return "Bedtime: \(what) blocked"
        case "educational": return "Educational apps only"
        case "social_only": return "Social apps only"
        default: return restriction.kind.replacingOccurrences(of: "_", with: " ").capitalizedFirst
        }
    }

    /// "3 min", "1 h 59 min", "2 days".
    static func span(seconds: Int64) -> String {
        let s = max(seconds, 0)
        if s < 60 { return "\(s) s" }
        if s < 3600 { return "\(s / 60) min" }
        if s < 86_400 { return s % 3600 / 60 == 0 ? "\(s / 3600) h" : "\(s / 3600) h \(s % 3600 / 60) min" }
        return "\(s / 86_400) day\(s / 86_400 == 1 ? "" : "s")"
    }

    private static func list(_ value: JSONObject?) -> String? {
        guard case .array(let items)? = value else { return nil }
        let names = items.compactMap(\.string)
        return names.isEmpty ? nil : names.joined(separator: ", ")
    }
}

extension String {
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
