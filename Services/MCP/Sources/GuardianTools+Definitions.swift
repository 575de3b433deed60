import MCP

extension GuardianTools {
    /// The four tools as an assistant lists them: what each does and the JSON schema of its arguments.
    public static let definitions: [Tool] = [
        Tool(
            name: "send_restriction_command",
            description: "Send a parental-control command for a child: the parent's words in `text` (e.g. \"Block all games for 2 hours\") or a structured `command`, not both. Accepted: the router's reply as JSON, with a summary of what is now in force. Refused: an error, \"Not done: <reason> (asked: <summary>)\". Unclear: \"Question for the parent …\" (not an error; nothing was done yet): ask the parent and send their answer.",
            inputSchema: .object([
                "type": "object",
                "properties": .object([
                    "text": .object(["type": "string", "description": "The parent's words."]),
                    "command": .object([
                        "type": "object",
                        "description": "A structured command: {action: shutdown|warning|allow|extend|block_app|schedule, durationSeconds?, apps?, categories?, message?, until?, condition?, schedule?}. shutdown blocks everything (or the categories named), block_app the apps named, allow lifts restrictions, warning sends the child `message`; extend is more time for the child (the current limit is lifted for `durationSeconds` or until `until`), never a longer block: to block for longer, send shutdown or block_app again. schedule sets a window (`schedule`; schedule_timed_restriction does the same).",
                        "properties": .object([
                            "action": .object(["type": "string", "enum": .array(["shutdown", "warning", "allow", "extend", "block_app", "schedule"])]),
                            "durationSeconds": .object([
                                "type": "integer", "minimum": 1, "maximum": 604_800, "description": "How long, in seconds (at most 7 days).",
                            ]),
                            "apps": .object([
                                "type": "array", "items": .object(["type": "string"]), "maxItems": 20,
                                "description": "App names, e.g. youtube, tiktok (for block_app, allow, extend).",
                            ]),
                            "categories": .object([
                                "type": "array", "items": .object(["type": "string", "enum": .array(["games", "social", "video", "education", "other"])]),
                                "description": "App categories (for shutdown, allow, extend).",
                            ]),
                            "message": .object(["type": "string", "maxLength": 200, "description": "What the child's device shows."]),
                            "until": .object(["type": "string", "description": "RFC 3339: when it ends, instead of durationSeconds (within 7 days)."]),
                            "condition": .object([
                                "type": "string", "maxLength": 64,
                                "description": "What the block waits for, in a word or two (e.g. homework, for \"No more YouTube until homework is done\"): the parent lifts it with allow once it is met.",
                            ]),
                            "schedule": .object([
                                "type": "object",
                                "description": "For action schedule: a window on the child's local clock.",
                                "properties": scheduleProperties,
                                "required": .array(["type", "start", "end"]),
                            ]),
                        ]),
                        "required": .array(["action"]),
                    ]),
                    "child": childArgument,
                ]),
            ])),
        Tool(
            name: "get_device_status",
            description: "A child's device: its last status message, the restrictions in force and the latest command (null when none was ever published). An error when the broker cannot be reached: the state is then unknown, not empty.",
            inputSchema: .object(["type": "object", "properties": .object(["child": childArgument])]),
            annotations: .init(readOnlyHint: true)),
        Tool(
            name: "check_child_activity",
            description: "Time a child spent per app and per category since a given time (default: the last 24 hours), with current restrictions.",
            inputSchema: .object([
                "type": "object",
                "properties": .object([
                    "child": childArgument,
                    "since": .object([
                        "type": "string",
                        "description": "RFC 3339 with offset or Z (e.g. 2026-11-22T07:00:00+01:00), between 2000 and 2200; default: 24 hours ago.",
                    ]),
                ]),
            ]),
            annotations: .init(readOnlyHint: true)),
        Tool(
            name: "schedule_timed_restriction",
            description: "A window on the child's local clock: bedtime (everything blocked), educational (education apps only) or social_only. One-off unless `repeat` says otherwise.",
            inputSchema: .object([
                "type": "object",
                "properties": .object(scheduleProperties.objectValue!.merging(["child": childArgument]) { $1 }),
                "required": .array(["type", "start", "end"]),
            ])),
    ]

    /// `child`, in every tool.
    static let childArgument: Value = .object([
        "type": "string", "description": "The child's name or device id; may be left out when the parent has one child.",
    ])

    /// A window's fields: a structured command's `schedule` and schedule_timed_restriction's arguments.
    static let scheduleProperties: Value = .object([
        "type": .object([
            "type": "string", "enum": .array(["bedtime", "educational", "social_only"]),
            "description": "bedtime: everything blocked; educational: education apps only; social_only: social apps only.",
        ]),
        "start": .object(["type": "string", "pattern": "^[0-2][0-9]:[0-5][0-9]$", "description": "Local HH:MM."]),
        "end": .object(["type": "string", "pattern": "^[0-2][0-9]:[0-5][0-9]$", "description": "Local HH:MM; not after start means overnight."]),
        "repeat": .object([
            "type": "string", "enum": .array(["none", "daily", "weekdays", "weekends"]), "default": "none",
            "description": "none (the default): once, the window under way now or else the next one; daily; weekdays or weekends: the days a window starts on (for an overnight window, the nights before school days, Sun-Thu, or the weekend nights, Fri and Sat).",
        ]),
    ])
}
