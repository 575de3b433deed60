import Foundation

/// One local day of a timeline as published on `guardian/timeline/{deviceId}/days/{date}`
/// (the service adds `deviceId` and `generatedAt`): the slots touching the day, clipped to it.
public struct DayTimeline: Sendable, Codable, Hashable {
    /// A slot clipped to the day; times in milliseconds since the Unix epoch.
    public struct Slot: Sendable, Codable, Hashable {
        public var start: Int64
        public var end: Int64
        public var category: TimelineCategory
        public var confidence: Double
        public var activity: MotionActivity
        public var location: GeoPoint?
        public var edited: Bool

        public init(
            start: Int64, end: Int64, category: TimelineCategory, confidence: Double, activity: MotionActivity, location: GeoPoint?,
            edited: Bool
        ) {
            self.start = start
            self.end = end
            self.category = category
            self.confidence = confidence
            self.activity = activity
            self.location = location
            self.edited = edited
        }
    }

    /// `YYYY-MM-DD` in `timezone`.
    public var date: String
    /// The IANA identifier of the device's time zone.
    public var timezone: String
    /// The instants the local day starts and ends (23 or 25 hours apart on DST days).
    public var dayStart: Int64
    public var dayEnd: Int64
    public var slots: [Slot]

    enum CodingKeys: String, CodingKey {
        case date, timezone, slots
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        date = try container.decode(String.self, forKey: .date)
        timezone = try container.decode(String.self, forKey: .timezone)
        slots = try container.decode([Slot].self, forKey: .slots)
        guard let zone = TimeZone(identifier: timezone), let bounds = LocalDays(zone).bounds(of: date) else {
            throw DecodingError.dataCorruptedError(forKey: .date, in: container, debugDescription: "no day \(date) in \(timezone)")
        }
        (dayStart, dayEnd) = bounds
    }

    /// A day as published (slots already clipped), `nil` if `date` is not a day in `timezone`.
    public init?(date: String, timezone: String, slots: [Slot]) {
        guard let zone = TimeZone(identifier: timezone), let bounds = LocalDays(zone).bounds(of: date) else { return nil }
        self.date = date
        self.timezone = timezone
        (dayStart, dayEnd) = bounds
        self.slots = slots
    }

    /// The local day `date` (`YYYY-MM-DD`) of a timeline's slots as they are (gaps left out),
    /// `nil` if there is no such date.
    public init?(date: String, spans: [SlotSpan], timeZone: TimeZone) {
        guard let (start, end) = LocalDays(timeZone).bounds(of: date) else { return nil }
        self.date = date
        self.timezone = timeZone.identifier
        self.dayStart = start
        self.dayEnd = end
        let first = spans.partitioningIndex { $0.end > start }
        slots = spans[first...].prefix { $0.start < end }.compactMap { span in
            let clippedStart = max(span.start, start), clippedEnd = min(span.end, end)
            guard clippedStart < clippedEnd, !span.slot.isGap else { return nil }
            let slot = span.slot
            return Slot(
                start: clippedStart, end: clippedEnd, category: slot.category, confidence: slot.confidence,
                activity: slot.activity, location: slot.location, edited: slot.edited)
        }
    }

    /// Every local day with data from the one holding `from` to the one holding the instant
    /// before `to`, its slots merged as a person would draw them (`mergedGroups`).
    public static func days(of state: TimelineState, timeZone: TimeZone, from: Int64? = nil, to: Int64? = nil) -> [DayTimeline] {
        let spans = state.spans.merged()
        guard let first = spans.first, let last = spans.last else { return [] }
        let lower = max(from ?? first.start, first.start), upper = min(to ?? last.end, last.end)
        guard lower < upper else { return [] }
        return LocalDays(timeZone).dates(from: lower, to: upper).compactMap { DayTimeline(date: $0, spans: spans, timeZone: timeZone) }
            .filter { !$0.slots.isEmpty }
    }

    /// The dates (`YYYY-MM-DD`) of the local days that `[from, to)` touches.
    public static func dates(from: Int64, to: Int64, timeZone: TimeZone) -> [String] {
        LocalDays(timeZone).dates(from: from, to: max(to, from + 1))
    }
}

/// Local calendar days in one time zone.
struct LocalDays {
    var calendar: Calendar

    init(_ timeZone: TimeZone) {
        calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        calendar.locale = Locale(identifier: "en_US_POSIX")
    }

    func bounds(of date: String) -> (Int64, Int64)? {
        let parts = date.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3,
              let noon = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: 12)),
              name(of: noon.milliseconds) == date
        else { return nil }
        let start = calendar.startOfDay(for: noon)
        guard let next = calendar.date(byAdding: .day, value: 1, to: start) else { return nil }
        return (start.milliseconds, calendar.startOfDay(for: next).milliseconds)
    }

    func name(of instant: Int64) -> String {
        let parts = calendar.dateComponents([.year, .month, .day], from: Date(milliseconds: instant))
        return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    }

    /// Local minutes after midnight at `instant`.
    func minute(of instant: Int64) -> Double {
        let offset = Int64(calendar.timeZone.secondsFromGMT(for: Date(milliseconds: instant))) * 1000
        return Double(((instant + offset) % 86_400_000 + 86_400_000) % 86_400_000) / 60_000
    }

    /// The local midnights from the one before `start` to the last before `end`, as read on a
    /// local clock (milliseconds since 1970-01-01 00:00 local), each with its weekday (0 = Monday).
    func clockMidnights(from start: Int64, to end: Int64) -> [(midnight: Int64, weekday: Int)] {
        let day: Int64 = 86_400_000
        let local = start + Int64(calendar.timeZone.secondsFromGMT(for: Date(milliseconds: start))) * 1000
        var midnights: [(Int64, Int)] = []
        var midnight = local - (local % day + day) % day
        // 1970-01-01 was a Thursday.
        while instant(minute: 0, clockMidnight: midnight) < end {
            midnights.append((midnight, Int((midnight / day + 3) % 7 + 7) % 7))
            midnight += day
        }
        return midnights
    }

    /// The instant of local `minute` after the midnight that reads `clockMidnight` (`clockMidnights`).
    func instant(minute: Double, clockMidnight: Int64) -> Int64 {
        let clock = clockMidnight + Int64(minute * 60_000)
        return clock - Int64(calendar.timeZone.secondsFromGMT(for: Date(milliseconds: clock))) * 1000
    }

    /// 0 = Monday … 6 = Sunday.
    func weekday(of instant: Int64) -> Int {
        (calendar.component(.weekday, from: Date(milliseconds: instant)) + 5) % 7
    }

    func dates(from: Int64, to: Int64) -> [String] {
        var names: [String] = []
        var day = calendar.startOfDay(for: Date(milliseconds: from))
        while day.milliseconds < to {
            names.append(name(of: day.milliseconds))
            guard let next = calendar.date(byAdding: .day, value: 1, to: day) else { break }
            day = calendar.startOfDay(for: next)
        }
        return names
    }
}
