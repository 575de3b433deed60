import Foundation

/// Work at home: a person with no place of work away from home who spends a weekday's working
/// morning (09:00 to noon) at home, up and about for an hour of it or more (a phone on a table
/// can show the night ending late), and no long stay elsewhere that day, is
/// working there; the stays at home in working hours that day are work, but for meals and rests.
extension SlotContext {
    /// The working morning, local hours.
    static let workingMorning = WorkingHours.start..<12
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
            guard let (dayStart, _) = days.bounds(of: date), days.weekday(of: dayStart + 12 * 3_600_000) < 5,
                  let from = days.calendar.date(bySettingHour: workingMorning.lowerBound, minute: 0, second: 0, of: Date(milliseconds: dayStart))?.milliseconds,
                  let to = days.calendar.date(bySettingHour: workingMorning.upperBound, minute: 0, second: 0, of: Date(milliseconds: dayStart))?.milliseconds
            else { continue }
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
        let hours = Double(WorkingHours.start * 60)..<Double(WorkingHours.end * 60)
        for index in contexts.indices where contexts[index].isStay && contexts[index].kind == .home && !contexts[index].isSleep
            && hours.contains(contexts[index].middle) && workdays.contains(days.name(of: (spans[index].start + spans[index].end) / 2)) {
            contexts[index].isWorkAtHome = true
        }
    }
}
