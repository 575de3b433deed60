import Foundation
import GuardianShared

extension ParentCommand {
    /// One line for a parent, times in UTC: "Games blocked for 2 hours".
    public var summary: String { summary(in: TimeZone(identifier: "UTC")!) }

    /// One line for a parent, `until` shown on the child's clock: "YouTube blocked until Fri 20:00".
    public func summary(in timeZone: TimeZone) -> String {
        let targets = Self.targetNames(apps: apps, categories: categories)
        let timing = timingPhrase(timeZone)
        switch action {
        case .shutdown:
            return (targets ?? "Everything") + " blocked" + timing
        case .blockApp:
            return (targets ?? "Apps") + " blocked" + timing
        case .allow:
            return (targets.map { $0 + " allowed" } ?? "All restrictions lifted") + timing
        case .extend:
            var line = durationSeconds.map(Self.moreTime) ?? "More time"
            if let targets { line += " on " + targets }
            if let date = untilDate { line += " until " + Self.clock(date, timeZone) }
            if let window = schedule { line += ", then bedtime at \(window.start)" }
            return line
        case .warning:
            return "Warning: “\(message ?? "")”"
        case .schedule:
            guard let window = schedule else { return "Schedule" }
            let name = window.type == .bedtime ? "Bedtime" : window.type == .educational ? "Homework time" : "Social-only time"
            let days: String
            switch window.repeat ?? Schedule.Repeat.none {
            case .none: days = "once"
            case .daily: days = "every day"
            case .weekdays: days = window.isOvernight ? "on school nights" : "on weekdays"
            case .weekends: days = window.isOvernight ? "on weekend nights" : "on weekends"
            }
            return "\(name) \(window.start)–\(window.end) \(days)"
        }
    }

    /// What is in effect once the child's device applied it, `until` shown on `timeZone`'s clock: a
    /// timed command ends at `expiresAt` ("Games blocked until Wed 18:26"), otherwise as ``summary(in:)``.
    public func effect(expiresAt: Timestamp?, in timeZone: TimeZone) -> String {
        guard let expiresAt, durationSeconds != nil || untilDate != nil, action != .extend else { return summary(in: timeZone) }
        var shown = self
        shown.durationSeconds = nil
        shown.until = expiresAt.rfc3339
        return shown.summary(in: timeZone)
    }

    private func timingPhrase(_ timeZone: TimeZone) -> String {
        var phrase = ""
        if let seconds = durationSeconds { phrase += " for " + Self.duration(seconds) }
        if let date = untilDate { phrase += " until " + Self.clock(date, timeZone) }
        if let condition {
            switch condition {
            case "dinner", "lunch", "breakfast", "bedtime": phrase += " until \(condition)"
            default: phrase += " until \(condition) is done"
            }
        }
        return phrase
    }

    static func targetNames(apps: [String]?, categories: [Category]?) -> String? {
        var names = (apps ?? []).map(AppCatalog.standard.displayName(for:))
        for category in categories ?? [] {
            switch category {
            case .games: names.append("games")
            case .social: names.append("social media")
            case .video: names.append("video")
            case .education: names.append("education apps")
            case .other: names.append("other apps")
            }
        }
        guard !names.isEmpty else { return nil }
        let list = names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " and " + names.last!
        return list.prefix(1).uppercased() + list.dropFirst()
    }

    /// "2 hours", "1 hour 30 minutes", "45 seconds", "7 days".
    static func duration(_ seconds: Int) -> String {
        let parts: [(Int, String)] = [(seconds / 86_400, "day"), (seconds % 86_400 / 3600, "hour"),
                                      (seconds % 3600 / 60, "minute"), (seconds % 60, "second")]
        let words = parts.filter { $0.0 > 0 }.prefix(2).map { "\($0.0) \($0.1)\($0.0 == 1 ? "" : "s")" }
        return words.isEmpty ? "0 seconds" : words.joined(separator: " ")
    }

    /// "10 more minutes", "1 more hour", "1 hour 30 minutes more".
    static func moreTime(_ seconds: Int) -> String {
        let text = duration(seconds)
        let words = text.split(separator: " ")
        return words.count == 2 ? "\(words[0]) more \(words[1])" : text + " more"
    }

    /// "Fri 20:00" on `timeZone`'s clock (commands reach at most 7 days ahead).
    static func clock(_ date: Date, _ timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.weekday, .hour, .minute], from: date)
        let day = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][(parts.weekday ?? 1) - 1]
        return "\(day) \(LocalTime(hour: parts.hour ?? 0, minute: parts.minute ?? 0)!)"
    }
}

extension Interpretation {
    /// The command's summary (prefixed by the child's name when one was given), or the question.
    public func summary(in timeZone: TimeZone) -> String {
        switch self {
        case .clarify(let question):
            return question
        case .command(let command, let child):
            let line = command.summary(in: timeZone)
            guard let child, !["him", "her"].contains(child.lowercased()) else { return line }
            return "\(child): \(line)"
        }
    }
}
