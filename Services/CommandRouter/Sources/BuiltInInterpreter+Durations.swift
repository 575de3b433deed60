import Foundation

/// An amount of time as written: "2 hours", "an hour and a half", "10 more minutes", "a while".
struct DurationPhrase: Sendable, Equatable {
    var seconds: Int
    /// "a few minutes", "a while": no amount to act on.
    var vague: Bool
    /// "more", "extra", "another": time added to a limit.
    var more: Bool
    /// "in 10 minutes": a delay, not a length.
    var delay = false
}

/// A time of day as written: "8pm", "8:30", "21:00", "noon", "9" (no meridiem).
struct ClockTime: Sendable, Equatable {
    enum Meridiem: Sendable { case am, pm }
    var hour: Int
    var minute: Int
    var meridiem: Meridiem?
    /// Written on a 24-hour clock ("21:00", "08:15") or as noon/midnight: no reading but its own.
    var exact: Bool
}

/// A point in time as written: a clock time, a day ("tomorrow", "Monday"), a part of a day, or both.
struct TimeExpression: Sendable, Equatable {
    enum Day: Sendable, Equatable { case today, tonight, tomorrow, weekday(Int) }
    enum Part: Sendable, Equatable { case morning, afternoon, evening, night }
    var clock: ClockTime?
    var day: Day?
    var part: Part?
}

extension ClauseParser {
    /// `[for|by] [the] [next] Amount`, `in Amount` (a delay), `another Amount`.
    func duration(at start: Int) -> (DurationPhrase, Int)? {
        var j = start
        var delay = false
        var next = false
        if key(j) == .forWord || key(j) == .by || key(j) == .inside {
            delay = key(j) == .inside
            j += 1
            while key(j) == .article || key(j) == .next || key(j) == .filler {
                if key(j) == .next { next = true }
                j += 1
            }
        }
        // "for the next hour": one unit
        if next, case .unit(let unit)? = key(j) {
            return (DurationPhrase(seconds: unit, vague: false, more: false, delay: delay), j + 1)
        }
        guard case (var phrase, let after)? = amount(at: j) else { return nil }
        phrase.delay = delay
        return (phrase, after)
    }

    /// One or more quantities ("1 hour 30 minutes", "2 hours and 15 minutes"), then an optional
    /// "more" or "longer".
    func amount(at start: Int) -> (DurationPhrase, Int)? {
        var j = start
        var more = false
        if key(j) == .another {
            more = true
            j += 1
        }
        guard case (var total, let next)? = quantity(at: j, impliedOne: more) else { return nil }
        total.more = total.more || more
        j = next
        while true {
            var k = j
            if key(k) == .and || punctuation(k) == "," { k += 1 }
            guard !total.vague, let (part, after) = quantity(at: k, impliedOne: false), !part.vague,
                  part.seconds < total.seconds
            else { break }
            total.seconds += part.seconds
            total.more = total.more || part.more
            j = after
        }
        if key(j) == .more || key(j) == .longer {
            total.more = true
            j += 1
        }
        return (total, j)
    }

    /// `N [more] UNIT [and a half]`, `N and a half UNIT`, `a|an [extra] UNIT`, `half an hour`,
    /// `a quarter of an hour`, `a couple of hours`, `1h30`, and the vague `a few minutes`, `a while`, `longer`.
    func quantity(at start: Int, impliedOne: Bool) -> (DurationPhrase, Int)? {
        var j = start
        var more = false
        var count: Double?
        var article = impliedOne
        if case .number(let n) = sense(j) {
            count = n
            j += 1
            if case .number(let fraction) = sense(j), fraction > 0, fraction < 1 {
                count = n + fraction
                j += 1
            }
        } else if key(j) == .a {
            article = true
            j += 1
        }
        if key(j) == .more {
            more = true
            j += 1
        }
        if count == nil, case .number(let n) = sense(j) {
            count = n
            j += 1
            if key(j) == .more {
                more = true
                j += 1
            }
        }
        func result(_ seconds: Double, _ next: Int, vague: Bool = false) -> (DurationPhrase, Int) {
            (DurationPhrase(seconds: seconds.isFinite ? Int(min(seconds, 1e12).rounded()) : Int.max, vague: vague, more: more), next)
        }
        switch key(j) {
        case .half?:
            var k = j + 1
            if key(k) == .a { k += 1 }
            guard case .unit(let unit)? = key(k) else { return nil }
            return result(Double(unit) * 0.5 * (count ?? 1), k + 1)
        case .quarter?:
            var k = j + 1
            if key(k) == .of { k += 1 }
            if key(k) == .a { k += 1 }
            guard case .unit(let unit)? = key(k) else { return nil }
            return result(Double(unit) * 0.25 * (count ?? 1), k + 1)
        case .couple?:
            var k = j + 1
            if key(k) == .of { k += 1 }
            if key(k) == .more {
                more = true
                k += 1
            }
            guard case .unit(let unit)? = key(k) else { return nil }
            return result(Double(unit) * 2, k + 1)
        case .vague?, .longer?:
            guard count == nil else { return nil }
            more = more || key(j) == .longer
            var k = j + 1
            if key(k) == .more || key(k) == .longer {
                more = true
                k += 1
            }
            if case .unit? = key(k) { k += 1 }
            return result(0, k, vague: true)
        case .unit(let unit)?:
            guard count != nil || article else { return nil }
            var seconds = Double(unit) * (count ?? 1)
            var k = j + 1
            if count != nil, key(k) == .and, key(k + 1) == .a, key(k + 2) == .half, case .unit(let u2)? = key(k + 3), u2 == unit {
                return result(seconds + Double(unit) / 2, k + 4)
            }
            if key(k) == .and, key(k + 1) == .a, key(k + 2) == .half {
                seconds += Double(unit) / 2
                k += 3
            } else if unit == 3600, case .number(let minutes) = sense(k), minutes < 60, minutes == minutes.rounded() {
                if case .unit? = key(k + 1) {} else {
                    seconds += minutes * 60
                    k += 1
                }
            }
            return result(seconds, k)
        case .and?:
            // "one and a half hours"
            guard let count, key(j + 1) == .a, key(j + 2) == .half, case .unit(let unit)? = key(j + 3) else { return nil }
            return result(Double(unit) * (count + 0.5), j + 4)
        default:
            return nil
        }
    }

    /// A clock time. A bare number ("until 5") counts only when `bare` allows it and no unit follows.
    func clockTime(at start: Int, bare: Bool) -> (ClockTime, Int)? {
        var j = start
        var time: ClockTime
        switch sense(j) {
        case .clock(let hour, let minute)?:
            time = ClockTime(hour: hour, minute: minute, meridiem: nil, exact: hour > 12 || tokens[lexes[j].first].word.hasPrefix("0"))
            j += 1
        case .number(let n)? where n == n.rounded() && n >= 0 && n <= 24:
            if case .unit? = key(j + 1) { return nil }
            time = ClockTime(hour: Int(n) % 24, minute: 0, meridiem: nil, exact: n > 12)
            j += 1
        case .key(.half)?:
            // "half 8", "half past 8": 8:30, as British parents write it
            var k = j + 1
            if k < hi, tokens[lexes[k].first].word == "past" { k += 1 }
            guard case .number(let n)? = sense(k), n == n.rounded(), (1...12).contains(Int(n)) else { return nil }
            if case .unit? = key(k + 1) { return nil }
            time = ClockTime(hour: Int(n), minute: 30, meridiem: nil, exact: false)
            j = k + 1
        case .key(.noon)?:
            return (ClockTime(hour: 12, minute: 0, meridiem: .pm, exact: true), j + 1)
        case .key(.midnight)?:
            return (ClockTime(hour: 0, minute: 0, meridiem: .am, exact: true), j + 1)
        default:
            return nil
        }
        switch key(j) {
        case .am?:
            guard (1...12).contains(time.hour) else { return nil }
            time.meridiem = .am
            time.hour %= 12
            j += 1
        case .pm?:
            guard (1...12).contains(time.hour) else { return nil }
            time.meridiem = .pm
            time.hour = time.hour % 12 + 12
            j += 1
        case .oclock?:
            j += 1
        default:
            if case .clock? = sense(start) {} else if !bare { return nil }
        }
        return (time, j)
    }

    /// `[today|tonight|tomorrow|Monday] [morning…] [at] [ClockTime] [today|tonight|tomorrow|…]`:
    /// "10am tomorrow", "tomorrow morning", "9 tonight", "Monday", "after 3pm today".
    func timeExpression(at start: Int, bare: Bool) -> (TimeExpression, Int)? {
        var j = start
        var expression = TimeExpression()
        func dayAt(_ k: Int) -> (TimeExpression.Day, Int)? {
            switch key(k) {
            case .today?: return (.today, k + 1)
            case .tonight?: return (.tonight, k + 1)
            case .tomorrow?: return (.tomorrow, k + 1)
            case .weekday(let d)?: return (.weekday(d), k + 1)
            case .next? where { if case .weekday? = key(k + 1) { return true }; return false }():
                if case .weekday(let d)? = key(k + 1) { return (.weekday(d), k + 2) }
                return nil
            case .article? where key(k + 1) == .morning || key(k + 1) == .afternoon || key(k + 1) == .evening:
                return (.today, k + 1)
            default: return nil
            }
        }
        func partAt(_ k: Int) -> (TimeExpression.Part, Int)? {
            var k = k
            if key(k) == .inside || key(k) == .at { k += 1 }
            if key(k) == .article { k += 1 }
            switch key(k) {
            case .morning?: return (.morning, k + 1)
            case .afternoon?: return (.afternoon, k + 1)
            case .evening?: return (.evening, k + 1)
            case .night?: return (.night, k + 1)
            default: return nil
            }
        }
        if daySet(at: j) == nil, let (day, next) = dayAt(j) {
            expression.day = day
            j = next
            if let (part, after) = partAt(j) {
                expression.part = part
                j = after
            }
            if key(j) == .at, let (clock, after) = clockTime(at: j + 1, bare: true) {
                expression.clock = clock
                j = after
            }
        }
        if expression.clock == nil, let (clock, next) = clockTime(at: j, bare: bare || expression.day != nil) {
            expression.clock = clock
            j = next
            if expression.day == nil, daySet(at: j) == nil, let (day, after) = dayAt(j) {
                expression.day = day
                j = after
            }
            if expression.part == nil, let (part, after) = partAt(j), key(j) != .at || key(j + 1) == .night {
                expression.part = part
                j = after
            }
        }
        guard expression.clock != nil || expression.day != nil else { return nil }
        return (expression, j)
    }
}

/// Turning written times into instants and schedule times.
enum TimeResolver {
    /// Where a written time becomes an instant: the morning after, for "tomorrow" and "tonight".
    static let morningHour = 7
    /// From this hour until `morningHour`, "tonight" is a question: this night is nearly over.
    static let nightOverHour = 4
    /// Before this hour "tonight" ("this evening", "at night") is a question: it is hours away, and
    /// a block, an allowance or more time from now would take in the day before it.
    static let tonightAheadHour = 12
    /// A time-of-day that passed less than this long ago is a question, not tomorrow's.
    static let recentlyPassed: TimeInterval = 6 * 3600
    /// A bare hour ("till 9") one of whose readings passed less than this long ago, the other
    /// being tomorrow, is a question.
    static let justPassed: TimeInterval = 3600
    /// A bare hour one of whose readings is less than this far ahead, the other later today, is a
    /// question: a block of minutes is seldom what "till 9" means at 08:40.
    static let justAhead: TimeInterval = 30 * 60

    enum Outcome {
        case instant(Date)
        case clarify(String)
    }

    static func calendar(_ timeZone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }

    static func at(_ hour: Int, _ minute: Int, on day: Date, _ calendar: Calendar) -> Date {
        calendar.date(bySettingHour: hour, minute: minute, second: 0, of: day, matchingPolicy: .nextTime,
                      repeatedTimePolicy: .first, direction: .forward) ?? day
    }

    /// The instant `until` a written time: the next occurrence of a bare time of day (between the
    /// am and pm readings of "until 5", the sooner), a day's morning for "tomorrow"/"Monday".
    static func instant(_ expression: TimeExpression, now: Date, timeZone: TimeZone) -> Outcome {
        let calendar = calendar(timeZone)
        let today = calendar.startOfDay(for: now)
        func day(offset: Int) -> Date { calendar.date(byAdding: .day, value: offset, to: today)! }

        var base: Date?
        switch expression.day {
        case .tomorrow?: base = day(offset: 1)
        case .weekday(let weekday)?:
            let current = calendar.component(.weekday, from: now)
            var offset = (weekday - current + 7) % 7
            if offset == 0 { offset = 7 }
            base = day(offset: offset)
        case .today?, .tonight?, nil: base = nil
        }
        let partIsPM = expression.part == .afternoon || expression.part == .evening || expression.part == .night
            || expression.day == .tonight

        guard let clock = expression.clock else {
            guard let base else {
                if let part = expression.part {
                    // "until the morning": the next one (at 17:12, tomorrow's), never this evening
                    let hour = part == .morning ? morningHour : part == .afternoon ? 12 : 18
                    let todayAt = at(hour, 0, on: today, calendar)
                    return .instant(todayAt > now ? todayAt : at(hour, 0, on: day(offset: 1), calendar))
                }
                // "until tonight" alone: the evening
                return .instant(at(18, 0, on: today, calendar))
            }
            let hour: Int
            switch expression.part {
            case .afternoon?: hour = 12
            case .evening?, .night?: hour = 18
            default: hour = morningHour
            }
            return .instant(at(hour, 0, on: base, calendar))
        }

        var hours: [Int]
        if clock.meridiem != nil || clock.exact {
            hours = [clock.hour]
        } else if partIsPM {
            hours = [clock.hour % 12 + 12]
        } else if expression.part == .morning {
            hours = [clock.hour % 12]
        } else if base != nil {
            hours = [(1...6).contains(clock.hour) ? clock.hour + 12 : clock.hour % 12 == 0 ? 12 : clock.hour]
        } else {
            hours = clock.hour == 12 ? [12, 0] : clock.hour == 0 ? [0] : clock.hour < 12 ? [clock.hour, clock.hour + 12] : [clock.hour]
        }
        if let base {
            return .instant(at(hours[0], clock.minute, on: base, calendar))
        }
        var best: Date?
        var passedToday: Date?
        for hour in hours {
            let todayAt = at(hour, clock.minute, on: today, calendar)
            if todayAt > now {
                best = min(best ?? todayAt, todayAt)
            } else {
                passedToday = max(passedToday ?? todayAt, todayAt)
                if expression.day == nil {
                    let tomorrowAt = at(hour, clock.minute, on: day(offset: 1), calendar)
                    best = min(best ?? tomorrowAt, tomorrowAt)
                }
            }
        }
        guard let best else {
            return .clarify("\(describe(clock)) has already passed today. Did you mean tomorrow?")
        }
        if hours.count == 1, let passed = passedToday, !calendar.isDate(best, inSameDayAs: now),
           now.timeIntervalSince(passed) < recentlyPassed {
            return .clarify("It's already past \(describe(clock)). Did you mean \(describe(clock)) tomorrow?")
        }
        // "till 9" at 21:33: one 9 o'clock just passed and the other is tomorrow, a night away.
        if hours.count == 2, let passed = passedToday, !calendar.isDate(best, inSameDayAs: now), now.timeIntervalSince(passed) < justPassed {
            let next = ClockTime(hour: calendar.component(.hour, from: best), minute: clock.minute, meridiem: nil, exact: true)
            return .clarify("It's just past \(describe(clock)) today. Did you mean \(describe(next)) tomorrow?")
        }
        // "till half 8" at 08:25: one half past 8 is minutes away, the other this evening.
        if hours.count == 2, best.timeIntervalSince(now) < justAhead,
           let evening = hours.map({ at($0, clock.minute, on: today, calendar) }).filter({ $0 > best }).min() {
            func exact(_ date: Date) -> ClockTime {
                ClockTime(hour: calendar.component(.hour, from: date), minute: clock.minute, meridiem: nil, exact: true)
            }
            return .clarify("\(describe(exact(best))) is only minutes away. Did you mean \(describe(exact(best))) or \(describe(exact(evening)))?")
        }
        return .instant(best)
    }

    /// A schedule's start ("bedtime at 9" → 21:00; "homework time at 4" → 16:00) from a time
    /// without a meridiem, read for the kind of schedule.
    static func scheduleStart(_ clock: ClockTime, kind: ParentCommand.Schedule.Kind, evening: Bool) -> LocalTime {
        var hour = clock.hour
        if clock.meridiem == nil && !clock.exact {
            if evening {
                hour = hour % 12 + 12
            } else if kind == .bedtime {
                hour = (5...11).contains(hour) ? hour + 12 : hour == 12 ? 0 : hour
            } else {
                hour = (1...7).contains(hour) ? hour + 12 : hour
            }
        }
        return LocalTime(hour: hour % 24, minute: clock.minute)!
    }

    /// A schedule's end: a bedtime ends in the morning; other windows end at the first reading
    /// after `start`.
    static func scheduleEnd(_ clock: ClockTime, kind: ParentCommand.Schedule.Kind, start: LocalTime) -> LocalTime {
        var hour = clock.hour
        if clock.meridiem == nil && !clock.exact {
            if kind == .bedtime {
                hour = hour == 12 ? 12 : hour % 12
            } else {
                let candidates = hour == 12 ? [12, 0] : [hour % 12, hour % 12 + 12]
                let startMinutes = start.minutesSinceMidnight
                hour = candidates.min { a, b in
                    ((a * 60 + clock.minute - startMinutes) + 1440) % 1440 < ((b * 60 + clock.minute - startMinutes) + 1440) % 1440
                }!
            }
        }
        return LocalTime(hour: hour % 24, minute: clock.minute)!
    }

    static func localTime(of date: Date, _ timeZone: TimeZone) -> LocalTime {
        let parts = calendar(timeZone).dateComponents([.hour, .minute], from: date)
        return LocalTime(hour: parts.hour!, minute: parts.minute!)!
    }

    static func describe(_ clock: ClockTime) -> String {
        if clock.meridiem == nil && !clock.exact {
            return clock.minute == 0 ? "\(clock.hour)" : "\(clock.hour):\(clock.minute < 10 ? "0" : "")\(clock.minute)"
        }
        let h12 = clock.hour % 12 == 0 ? 12 : clock.hour % 12
        let minutes = clock.minute == 0 ? "" : ":\(clock.minute < 10 ? "0" : "")\(clock.minute)"
        return "\(h12)\(minutes) \(clock.hour < 12 ? "am" : "pm")"
    }
}
