import Foundation

/// Work at home: a person with no place of work away from home who spends a weekday's working
/// morning (09:00 to noon) at home, up and about for an hour of it or more (a phone on a table
/// can show the night ending late), and no long stay elsewhere that day, is
/// working there; the stays at home in their working hours that day are work, but for meals and
/// rests: from the person's own start (`ownWorkStart`) to 17:00, or from sitting down to getting
/// up when that is near them (`atDesk`).
extension SlotContext {
    /// The working morning, local minutes after midnight.
    static let workingMorning = WorkingHours.start..<12 * 60
    /// Of the working morning, at least this many minutes up at home, and no trip out.
    static let morningAtHome = 60.0
    /// Movement shorter than this is about the place, not a trip out.
    static let tripOut: Int64 = 10 * 60_000
    /// A stay away from home this long (minutes) makes the day no day of work at home.
    static let longStayAway = Double(DevicePlaces.longStay / 60_000)

    /// Marks the stays at home in working hours on the weekdays whose working morning was spent at home.
    static func markWorkAtHome(_ contexts: inout [SlotContext], _ spans: [SlotSpan], places: DevicePlaces, days: LocalDays) {
        guard places.work == nil, places.home != nil, let first = spans.first, let last = spans.last else { return }
        // A day with a long stay elsewhere (work away, a visit) is no day of work at home.
        let daysAway = Set(contexts.indices.filter { contexts[$0].isStay && contexts[$0].kind != .home && contexts[$0].visitMinutes >= longStayAway }
            .map { days.name(of: spans[$0].start) })
        var workdays: Set<String> = []
        for date in days.dates(from: first.start, to: last.end) where !daysAway.contains(date) {
            guard let (dayStart, _) = days.bounds(of: date), days.weekday(of: dayStart + 12 * 3_600_000) < 5 else { continue }
            func instant(_ minute: Double) -> Int64? {
                days.calendar.date(bySettingHour: Int(minute) / 60, minute: Int(minute) % 60, second: 0, of: Date(milliseconds: dayStart))?.milliseconds
            }
            guard let from = instant(workingMorning.lowerBound), let to = instant(workingMorning.upperBound) else { continue }
            var up: Int64 = 0, away = false
            for index in spans.partitioningIndex(where: { $0.end > from })..<spans.count where spans[index].start < to {
                let span = spans[index], overlap = min(span.end, to) - max(span.start, from)
                if contexts[index].isStay {
                    if contexts[index].kind != .home { away = true } else if !contexts[index].isSleep { up += overlap }
                } else if span.slot.isGap || span.duration >= tripOut {
                    away = true
                }
            }
            if !away, Double(up) / 60_000 >= morningAtHome { workdays.insert(date) }
        }
        guard !workdays.isEmpty else { return }
        let hours = ownWorkStart(contexts, spans, workdays: workdays, days: days)..<WorkingHours.end
        for index in contexts.indices where contexts[index].isStay && contexts[index].kind == .home && !contexts[index].isSleep
            && (hours.contains(contexts[index].middle) || atDesk(index, hours, contexts, spans))
            && workdays.contains(days.name(of: (spans[index].start + spans[index].end) / 2)) {
            contexts[index].isWorkAtHome = true
        }
    }

    /// Sitting down this many minutes or less before working hours start, or getting up this many
    /// or less after they end, is the working day's start or end.
    static let deskMargin = 35.0

    /// Whether the stay at `index` is at the desk outside `hours`: its stillness begun by sitting
    /// down (after movement) up to `deskMargin` before they start, going on into them, or ended by
    /// getting up up to `deskMargin` after they end, begun well within them.
    static func atDesk(_ index: Int, _ hours: Range<Double>, _ contexts: [SlotContext], _ spans: [SlotSpan]) -> Bool {
        let context = contexts[index], first = context.stillFirst
        var last = index
        while last + 1 < contexts.count, contexts[last + 1].stillFirst == first { last += 1 }
        // The stillness may have begun the night before (a phone on a table all night).
        let start = context.stillStart, end = (start + context.stillMinutes).truncatingRemainder(dividingBy: 1440)
        let settled = Double(WorkingHours.shortestPiece / 60_000)
        let gotUp = spans[last].slot.endsMoving == true || (last + 1 < contexts.count && !contexts[last + 1].isStay)
        return (satDown(first, contexts, spans) && (hours.lowerBound - deskMargin..<hours.lowerBound).contains(start)
                && start + context.stillMinutes > hours.lowerBound + settled && context.middle < hours.lowerBound)
            || (gotUp && (hours.upperBound...hours.upperBound + deskMargin).contains(end)
                && context.stillMinutes > end - hours.upperBound + settled && context.middle >= hours.upperBound)
    }

    /// Whether the stillness from `first` begins with sitting down: after a walk about the place or
    /// on coming in.
    static func satDown(_ first: Int, _ contexts: [SlotContext], _ spans: [SlotSpan]) -> Bool {
        first > 0 && !spans[first - 1].slot.isGap && (spans[first - 1].slot.endsMoving == true || !contexts[first - 1].isStay)
    }

    /// Working days whose start (sitting down, `atDesk`) the phone shows on this many days or more
    /// give the person's own: the middle one, to the quarter hour, within `WorkingHours.starts`;
    /// else the usual one. (Getting up after work shows its end too seldom: a phone on a table
    /// shows the next time the person moves it, often a break or a later walk about the flat.)
    static let fewestWorkdaysShown = 3

    /// The local minute the person's own working day starts at, from `workdays`' signs: on each,
    /// the first stillness at home begun by sitting down within `deskMargin` of the quarter hours a
    /// working day may start at, lasting an hour or more.
    static func ownWorkStart(_ contexts: [SlotContext], _ spans: [SlotSpan], workdays: Set<String>, days: LocalDays) -> Double {
        var shown: [String: Double] = [:]
        let mayStart = WorkingHours.starts.first! - deskMargin...WorkingHours.starts.last! + deskMargin
        for index in contexts.indices where contexts[index].stillFirst == index && contexts[index].kind == .home && !contexts[index].isSleep
            && contexts[index].stillMinutes >= 60 && mayStart.contains(contexts[index].stillStart) && satDown(index, contexts, spans) {
            let date = days.name(of: spans[index].start)
            if workdays.contains(date), shown[date] == nil { shown[date] = contexts[index].stillStart }
        }
        guard shown.count >= fewestWorkdaysShown else { return WorkingHours.start }
        let middle = (SleepHabits.quantile(Array(shown.values), 0.5) / 15).rounded() * 15
        return min(max(middle, WorkingHours.starts.first!), WorkingHours.starts.last!)
    }
}
