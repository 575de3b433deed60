import Foundation

extension LLMInterpreter {
    /// The JSON schema of the model's answer: a contract command plus `child`, or
    /// `{action: "clarify", question}`. Sent as `response_format.json_schema.schema`.
    public static func answerSchema() -> [String: Any] {
        let time: [String: Any] = ["type": "string", "pattern": "^([01][0-9]|2[0-3]):[0-5][0-9]$"]
        return [
            "type": "object",
            "properties": [
                "action": ["type": "string", "enum": ParentCommand.Action.allCases.map(\.rawValue) + ["clarify"]],
                "durationSeconds": ["type": "integer", "minimum": 1, "maximum": ParentCommand.durationRange.upperBound],
                "apps": ["type": "array", "items": ["type": "string"], "minItems": 1, "maxItems": ParentCommand.maxApps],
                "categories": [
                    "type": "array", "minItems": 1,
                    "items": ["type": "string", "enum": ParentCommand.Category.allCases.map(\.rawValue)],
                ] as [String: Any],
                "message": ["type": "string", "maxLength": ParentCommand.maxMessageLength],
                "until": ["type": "string"],
                "condition": ["type": "string", "maxLength": ParentCommand.maxConditionLength],
                "schedule": [
                    "type": "object",
                    "properties": [
                        "start": time, "end": time,
                        "type": ["type": "string", "enum": ParentCommand.Schedule.Kind.allCases.map(\.rawValue)],
                        "repeat": ["type": "string", "enum": ParentCommand.Schedule.Repeat.allCases.map(\.rawValue)],
                    ] as [String: Any],
                    "required": ["start", "end", "type"],
                    "additionalProperties": false,
                ] as [String: Any],
                "child": ["type": "string", "maxLength": 64],
                "question": ["type": "string", "maxLength": 300],
            ] as [String: Any],
            "required": ["action"],
            "additionalProperties": false,
        ]
    }

    /// The system prompt: the schema in words (a grammar constrains sampling, it is not shown to
    /// the model), the rules, the child's clock, and the contract's examples.
    static func systemPrompt(now: Date, timeZone: TimeZone) -> String {
        let local = localTimestamp(now, timeZone)
        return """
        You turn a parent's message about their child's device into one JSON object. Reply with JSON only.

        Fields (omit the ones that do not apply):
        - action: "shutdown" (block everything, or whole categories), "block_app" (block named apps), "allow" (lift restrictions), "extend" (more time for the child on the current limit: it lifts the limit for that long, never makes a block longer), "warning" (send the child a message, no block), "schedule" (a bedtime, educational or social-only window), or "clarify" when the message is unclear, is a question, or asks for two things.
        - durationSeconds: integer, 1 to 604800, for "for 2 hours" (7200) or "10 more minutes" (600).
        - until: an RFC 3339 time with offset for "till 8pm", "until tomorrow" (07:00 that day).
        - condition: a short word for "until homework is done" ("homework").
        - apps: lowercase app names, e.g. ["youtube", "tiktok"].
        - categories: any of "games", "social", "video", "education", "other" ("social media" is "social", "gaming" is "games").
        - message: the warning text, at most 200 characters, spoken to the child.
        - schedule: {"start": "HH:MM", "end": "HH:MM", "type": "bedtime"|"educational"|"social_only", "repeat": "none"|"daily"|"weekdays"|"weekends"}. For an overnight window (end before start), "weekdays" means school nights (Sunday to Thursday nights) and "weekends" Friday and Saturday nights; school nights cannot describe a daytime window. A bedtime without an end ends at 07:00.
        - child: the child's name or "him"/"her" if the message names one.
        - question: for "clarify", what to ask the parent.
        Words that cancel, undo, lift or negate a block ("cancel the block on YouTube", "no need to block games", "stop blocking", "unban") mean "allow", never a block. A device named as where time is spent ("on the Xbox", "on her laptop") is the child's device, not an app.
        Never guess: if unsure, answer {"action": "clarify", "question": "..."}.

        The child's local time now: \(local) (\(timeZone.identifier)).

        Examples:
        "Block all games for 2 hours" -> {"action": "shutdown", "durationSeconds": 7200, "categories": ["games"]}
        "Give him 10 more minutes" -> {"action": "extend", "durationSeconds": 600, "child": "him"}
        "No more YouTube until homework is done" -> {"action": "block_app", "apps": ["youtube"], "condition": "homework"}
        "Send a warning that dinner is in 10 minutes" -> {"action": "warning", "message": "Dinner is in 10 minutes"}
        "Bedtime at 9 on school nights" -> {"action": "schedule", "schedule": {"start": "21:00", "end": "07:00", "type": "bedtime", "repeat": "weekdays"}}
        "What is Sam doing?" -> {"action": "clarify", "question": "I can only send commands. What should I do?"}
        """
    }

    /// "Friday 2026-05-15 13:30 (UTC-04:00)".
    static func localTimestamp(_ date: Date, _ timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let p = calendar.dateComponents([.year, .month, .day, .hour, .minute, .weekday], from: date)
        let names = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
        let offset = timeZone.secondsFromGMT(for: date)
        let sign = offset < 0 ? "-" : "+"
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let day = "\(p.year!)-\(two(p.month!))-\(two(p.day!))"
        return "\(names[p.weekday! - 1]) \(day) \(two(p.hour!)):\(two(p.minute!)) (UTC\(sign)\(two(abs(offset) / 3600)):\(two(abs(offset) % 3600 / 60)))"
    }

    /// The chat-completions request body.
    func requestBody(text: String, now: Date, timeZone: TimeZone) throws -> Data {
        let body: [String: Any] = [
            "model": configuration.model,
            "temperature": configuration.temperature,
            "max_tokens": configuration.maxTokens,
            "messages": [
                ["role": "system", "content": Self.systemPrompt(now: now, timeZone: timeZone)],
                ["role": "user", "content": text],
            ],
            "response_format": [
                "type": "json_schema",
                "json_schema": ["name": "parent_command", "strict": true, "schema": Self.answerSchema()] as [String: Any],
            ] as [String: Any],
        ]
        return try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
    }
}
