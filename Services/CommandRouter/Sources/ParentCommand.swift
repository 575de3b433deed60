import Foundation

/// A parent's structured command, as the contract defines it:
/// `{action, durationSeconds?, apps?, categories?, message?, until?, condition?, schedule?}`.
///
/// Every way of making one (`init(from:)`, `init(action:…)`) validates it, so a value of this type
/// always satisfies ``validate()``. App names are normalised to catalog ids (`"YouTube"` →
/// `"youtube"`), `until` to the contract's output form (RFC 3339, UTC, milliseconds).
public struct ParentCommand: Codable, Sendable, Equatable, Hashable {
    public enum Action: String, Codable, Sendable, CaseIterable {
        case shutdown, warning, allow, extend
        case blockApp = "block_app"
        case schedule
    }

    /// The contract's app categories (the same as a `usage` event's).
    public enum Category: String, Codable, Sendable, CaseIterable {
        case games, social, video, education, other
    }

    /// A recurring or one-off window, local times `"HH:MM"` on the child's clock. A window whose
    /// `end` is not after its `start` runs overnight.
    public struct Schedule: Codable, Sendable, Equatable, Hashable {
        public enum Kind: String, Codable, Sendable, CaseIterable {
            case bedtime, educational
            case socialOnly = "social_only"
        }

        /// `weekdays`/`weekends` name the days a window starts on, except for an overnight window,
        /// where they name the nights before school days (Sun-Thu) and the weekend nights (Fri, Sat).
        public enum Repeat: String, Codable, Sendable, CaseIterable {
            case none, daily, weekdays, weekends
        }

        public var start: String
        public var end: String
        public var type: Kind
        public var `repeat`: Repeat?

        enum CodingKeys: String, CodingKey { case start, end, type, `repeat` }

        public init(start: String, end: String, type: Kind, repeat: Repeat? = Repeat.none) {
            self.start = start
            self.end = end
            self.type = type
            self.repeat = `repeat`
        }

        /// Whether the window crosses midnight.
        public var isOvernight: Bool { end <= start }
    }

    public static let durationRange = 1...(7 * 86_400)
    public static let maxMessageLength = 200
    public static let maxConditionLength = 64
    public static let maxApps = 20

    public var action: Action
    public var durationSeconds: Int?
    public var apps: [String]?
    public var categories: [Category]?
    public var message: String?
    public var until: String?
    public var condition: String?
    public var schedule: Schedule?

    /// A validated command; throws ``CommandValidationError`` when it breaks a rule.
    public init(
        action: Action, durationSeconds: Int? = nil, apps: [String]? = nil, categories: [Category]? = nil,
        message: String? = nil, until: String? = nil, condition: String? = nil, schedule: Schedule? = nil
    ) throws {
        self.action = action
        self.durationSeconds = durationSeconds
        self.apps = apps
        self.categories = categories
        self.message = message
        self.until = until
        self.condition = condition
        self.schedule = schedule
        try normalizeAndValidate()
    }

    enum CodingKeys: String, CodingKey {
        case action, durationSeconds, apps, categories, message, until, condition, schedule
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        guard let action = Action(rawValue: try c.decode(String.self, forKey: .action)) else {
            throw CommandValidationError(field: "action", reason: "must be one of \(Action.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        self.action = action
        if c.contains(.durationSeconds), try !c.decodeNil(forKey: .durationSeconds) {
            let seconds = try c.decode(Double.self, forKey: .durationSeconds)
            guard abs(seconds) < 1e12 else {
                throw CommandValidationError(field: "durationSeconds", reason: "must be between 1 second and 7 days")
            }
            guard seconds.rounded() == seconds else {
                throw CommandValidationError(field: "durationSeconds", reason: "must be a whole number of seconds")
            }
            durationSeconds = Int(seconds)
        }
        apps = try c.decodeIfPresent([String].self, forKey: .apps)
        if let names = try c.decodeIfPresent([String].self, forKey: .categories) {
            categories = try names.map { name in
                guard let category = Category(rawValue: name) else {
                    throw CommandValidationError(field: "categories", reason: "unknown category \"\(name)\"")
                }
                return category
            }
        }
        message = try c.decodeIfPresent(String.self, forKey: .message)
        until = try c.decodeIfPresent(String.self, forKey: .until)
        condition = try c.decodeIfPresent(String.self, forKey: .condition)
        if c.contains(.schedule), try !c.decodeNil(forKey: .schedule) {
            let s = try c.nestedContainer(keyedBy: Schedule.CodingKeys.self, forKey: .schedule)
            let type = try s.decode(String.self, forKey: .type)
            guard let kind = Schedule.Kind(rawValue: type) else {
                throw CommandValidationError(field: "schedule.type", reason: "must be bedtime, educational or social_only")
            }
            var repeatValue: Schedule.Repeat?
            if let name = try s.decodeIfPresent(String.self, forKey: .repeat) {
                guard let value = Schedule.Repeat(rawValue: name) else {
                    throw CommandValidationError(field: "schedule.repeat", reason: "must be none, daily, weekdays or weekends")
                }
                repeatValue = value
            }
            schedule = Schedule(
                start: try s.decode(String.self, forKey: .start), end: try s.decode(String.self, forKey: .end),
                type: kind, repeat: repeatValue)
        }
        try normalizeAndValidate()
    }

    /// The `until` instant, if any.
    public var untilDate: Date? { until.flatMap(RFC3339.parse) }

    /// Throws when the command breaks a rule of the contract or of Guardian's reading of it.
    public func validate() throws {
        var copy = self
        try copy.normalizeAndValidate()
    }

    /// ``validate()``, plus the rules that need the current time: `until` must lie after `now`
    /// and at most 7 days ahead.
    public func validate(now: Date) throws {
        try validate()
        if let date = untilDate {
            guard date > now else { throw CommandValidationError(field: "until", reason: "is in the past") }
            guard date.timeIntervalSince(now) <= Double(Self.durationRange.upperBound) else {
                throw CommandValidationError(field: "until", reason: "is more than 7 days ahead")
            }
        }
    }

    private mutating func normalizeAndValidate() throws {
        func fail(_ field: String, _ reason: String) -> CommandValidationError {
            CommandValidationError(field: field, reason: reason)
        }
        if let seconds = durationSeconds, !Self.durationRange.contains(seconds) {
            throw fail("durationSeconds", "must be between 1 second and 7 days")
        }
        if let names = apps {
            guard !names.isEmpty else { throw fail("apps", "must not be empty") }
            guard names.count <= Self.maxApps else { throw fail("apps", "at most \(Self.maxApps) apps") }
            var ids: [String] = []
            for name in names {
                guard let id = AppCatalog.standard.normalizedID(for: name) else {
                    throw fail("apps", "\"\(name.prefix(40))\" is not a plausible app name")
                }
                if !ids.contains(id) { ids.append(id) }
            }
            apps = ids
        }
        if let list = categories {
            guard !list.isEmpty else { throw fail("categories", "must not be empty") }
            var unique: [Category] = []
            for category in list where !unique.contains(category) { unique.append(category) }
            categories = unique
        }
        if let text = message {
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else { throw fail("message", "must not be empty") }
            guard trimmed.count <= Self.maxMessageLength else { throw fail("message", "at most \(Self.maxMessageLength) characters") }
            guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw fail("message", "must not contain control characters")
            }
            message = trimmed
        }
        if let text = until {
            guard let date = RFC3339.parse(text) else { throw fail("until", "must be an RFC 3339 time with an offset or Z") }
            until = RFC3339.format(date)
        }
        if let text = condition {
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
            guard !trimmed.isEmpty else { throw fail("condition", "must not be empty") }
            guard trimmed.count <= Self.maxConditionLength else { throw fail("condition", "at most \(Self.maxConditionLength) characters") }
            guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw fail("condition", "must not contain control characters")
            }
            condition = trimmed
        }
        if let window = schedule {
            guard LocalTime(window.start) != nil else { throw fail("schedule.start", "must be a time of day, HH:MM from 00:00 to 23:59") }
            guard LocalTime(window.end) != nil else { throw fail("schedule.end", "must be a time of day, HH:MM from 00:00 to 23:59") }
            guard window.start != window.end else { throw fail("schedule", "start and end must differ") }
        }
        if durationSeconds != nil, until != nil { throw fail("until", "give durationSeconds or until, not both") }
        try validateFields(for: action, fail: fail)
    }

    private func validateFields(for action: Action, fail: (String, String) -> CommandValidationError) throws {
        let targeted = apps != nil || categories != nil
        let timed = durationSeconds != nil || until != nil || condition != nil
        switch action {
        case .warning:
            guard message != nil else { throw fail("message", "a warning needs a message") }
            guard !targeted, !timed, schedule == nil else {
                throw fail("action", "a warning carries only a message")
            }
        case .extend:
            guard durationSeconds != nil || until != nil else { throw fail("durationSeconds", "extend needs durationSeconds or until") }
            guard condition == nil else { throw fail("condition", "extend takes no condition") }
            if let window = schedule, window.type != .bedtime {
                throw fail("schedule", "an extension can only be followed by bedtime")
            }
        case .blockApp:
            guard targeted else { throw fail("apps", "block_app needs apps or categories") }
            guard schedule == nil else { throw fail("schedule", "only schedule and extend take a schedule") }
        case .shutdown, .allow:
            guard schedule == nil else { throw fail("schedule", "only schedule and extend take a schedule") }
        case .schedule:
            guard schedule != nil else { throw fail("schedule", "a schedule command needs a schedule") }
            guard !timed else { throw fail("action", "a schedule takes no durationSeconds, until or condition") }
        }
    }
}

/// Why a ``ParentCommand`` was refused: the field and the rule it breaks.
public struct CommandValidationError: Error, Sendable, Equatable, CustomStringConvertible {
    public var field: String
    public var reason: String

    public init(field: String, reason: String) {
        self.field = field
        self.reason = reason
    }

    public var description: String { "\(field): \(reason)" }
}
