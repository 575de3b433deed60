/// A wall-clock time of day, `"HH:MM"` in a schedule.
struct LocalTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    var hour: Int
    var minute: Int

    init?(hour: Int, minute: Int) {
        guard (0..<24).contains(hour), (0..<60).contains(minute) else { return nil }
        self.hour = hour
        self.minute = minute
    }

    /// Parses exactly `HH:MM`.
    init?(_ text: String) {
        let b = Array(text.utf8)
        guard b.count == 5, b[2] == 58, b.indices.allSatisfy({ $0 == 2 || (48...57).contains(b[$0]) }) else { return nil }
        self.init(hour: Int(b[0] - 48) * 10 + Int(b[1] - 48), minute: Int(b[3] - 48) * 10 + Int(b[4] - 48))
    }

    var minutesSinceMidnight: Int { hour * 60 + minute }

    var description: String {
        (hour < 10 ? "0" : "") + String(hour) + ":" + (minute < 10 ? "0" : "") + String(minute)
    }

    static func < (a: LocalTime, b: LocalTime) -> Bool { a.minutesSinceMidnight < b.minutesSinceMidnight }
}
