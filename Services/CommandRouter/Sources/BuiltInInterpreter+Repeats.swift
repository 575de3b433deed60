import Foundation

/// The days a schedule repeats on, as written. The contract has four values, and the router reads
/// `weekdays`/`weekends` by the window: an overnight window on `weekdays` starts Sunday to Thursday
/// (school nights), on `weekends` Friday and Saturday; a daytime one Monday to Friday, or Saturday and Sunday.
enum RepeatPhrase: Sendable, Equatable {
    /// "daily", "weekdays", "weekends": the contract's value as it is.
    case named(ParentCommand.Schedule.Repeat)
    /// "school nights", "weeknights", "weekend nights": evenings running into the next morning, so
    /// only an overnight window can repeat on them.
    case nights(ParentCommand.Schedule.Repeat)
    /// "Sunday to Thursday (nights)", "Friday and Saturday nights": the days a window starts on
    /// (1 = Sunday).
    case days(Set<Int>)

    static let everyDay = Set(1...7)
    static let sundayToThursday = Set(1...5)
    static let mondayToFriday = Set(2...6)
    static let fridayAndSaturday: Set<Int> = [6, 7]
    static let saturdayAndSunday: Set<Int> = [7, 1]

    /// The contract's value for a window that is `overnight` (ends at or before it starts), or nil
    /// when none says it.
    func resolved(overnight: Bool) -> ParentCommand.Schedule.Repeat? {
        switch self {
        case .named(let value):
            return value
        case .nights(let value):
            return overnight ? value : nil
        case .days(let days):
            if days == Self.everyDay { return .daily }
            if days == (overnight ? Self.sundayToThursday : Self.mondayToFriday) { return .weekdays }
            if days == (overnight ? Self.fridayAndSaturday : Self.saturdayAndSunday) { return .weekends }
            return nil
        }
    }
}

extension ClauseParser {
    /// Two or more weekdays as a range or a list, then an optional "nights": "Sunday to Thursday",
    /// "Sunday-Thursday" (two days side by side), "Friday and Saturday nights", "Mondays, Wednesdays
    /// and Fridays". A range wraps past Saturday.
    func daySet(at start: Int) -> (Set<Int>, Int)? {
        func weekday(_ i: Int) -> Int? {
            if case .weekday(let day)? = key(i) { return day }
            return nil
        }
        guard let first = weekday(start) else { return nil }
        var days: Set<Int> = [first]
        var last = first
        var j = start + 1
        // The tokenizer drops a hyphen between words: "Sunday-Thursday" is two days side by side.
        if let day = weekday(j), weekday(j + 1) == nil {
            days.formUnion(Self.weekdays(from: last, to: day))
            last = day
            j += 1
        }
        while true {
            var k = j
            let isRange = key(k) == .to || punctuation(k) == "-"
            if isRange || key(k) == .and || punctuation(k) == "," { k += 1 }
            if !isRange, key(k) == .and { k += 1 }
            guard k > j, let day = weekday(k) else { break }
            if isRange { days.formUnion(Self.weekdays(from: last, to: day)) } else { days.insert(day) }
            last = day
            j = k + 1
        }
        guard days.count >= 2 else { return nil }
        if key(j) == .night { j += 1 }
        return (days, j)
    }

    /// `from` through `to`, wrapping past Saturday.
    static func weekdays(from: Int, to: Int) -> Set<Int> {
        var days: Set<Int> = [from]
        var day = from
        while day != to {
            day = day % 7 + 1
            days.insert(day)
        }
        return days
    }
}
