import Foundation
import GuardianShared

/// A rule a command left on a child, kept until it ends: a timed or open block, a recurring
/// schedule, or an exemption (`allow` for a while) that suspends matching blocks.
struct RestrictionRule: Codable, Sendable, Equatable {
    enum Kind: String, Codable, Sendable {
        case shutdown
        case blockApp = "block_app"
        case bedtime, educational
        case socialOnly = "social_only"
        case exemption
    }

    var id: String
    var commandId: String
    var kind: Kind
    var apps: [String]?
    var categories: [String]?
    var message: String?
    var condition: String?
    /// When it takes effect and ends (`until` nil: until lifted).
    var from: Timestamp
    var until: Timestamp?
    /// A recurring window in the child's local time (schedules).
    var schedule: ParentCommand.Schedule?

    /// The instance of the rule in effect at `t`, with its bounds, or nil.
    func window(at t: Timestamp, timeZone: TimeZone) -> (from: Timestamp, until: Timestamp?)? {
        guard t >= from, until.map({ t < $0 }) ?? true else { return nil }
        guard let schedule else { return (from, until) }
        return ScheduleWindows(schedule: schedule, timeZone: timeZone).window(containing: t).map { ($0.start, $0.end) }
    }

    /// The next instant after `t` at which the rule starts or stops applying.
    func nextBoundary(after t: Timestamp, timeZone: TimeZone) -> Timestamp? {
        var candidates: [Timestamp] = []
        if from > t { candidates.append(from) }
        if let until, until > t { candidates.append(until) }
        if let schedule, let next = ScheduleWindows(schedule: schedule, timeZone: timeZone).nextBoundary(after: max(t, from)) {
            if until.map({ next < $0 }) ?? true { candidates.append(next) }
        }
        return candidates.min()
    }

    /// Whether the two name an app or a category in common.
    func overlaps(_ other: RestrictionRule) -> Bool {
        !Set(apps ?? []).isDisjoint(with: other.apps ?? []) || !Set(categories ?? []).isDisjoint(with: other.categories ?? [])
    }

    /// True when an exemption covers this rule (same apps or categories, or everything) made no
    /// earlier than it: a block asked for during an allowance is the parent's latest word.
    func isCovered(by exemption: RestrictionRule) -> Bool {
        guard exemption.kind == .exemption, kind != .exemption, exemption.from >= from else { return false }
        if exemption.apps == nil && exemption.categories == nil { return true }
        let apps = Set(apps ?? []), categories = Set(categories ?? [])
        return !apps.intersection(exemption.apps ?? []).isEmpty || !categories.intersection(exemption.categories ?? []).isEmpty
    }

    /// What is left of this rule under `exemption`: itself when not covered, nil when everything it
    /// names is lifted, else the rule on the rest ("unblock YouTube" after "block TikTok and
    /// YouTube" leaves TikTok blocked).
    func lifted(by exemption: RestrictionRule) -> RestrictionRule? {
        guard isCovered(by: exemption) else { return self }
        guard exemption.apps != nil || exemption.categories != nil else { return nil }
        var rest = self
        rest.apps = apps.map { $0.filter { !(exemption.apps ?? []).contains($0) } }.flatMap { $0.isEmpty ? nil : $0 }
        rest.categories = categories.map { $0.filter { !(exemption.categories ?? []).contains($0) } }.flatMap { $0.isEmpty ? nil : $0 }
        return rest.apps == nil && rest.categories == nil ? nil : rest
    }
}

/// The local windows of a schedule: `start`-`end` on the days `repeat` names (an overnight window
/// belongs to the day it starts; `weekdays` are then the nights before school days, Sun-Thu).
struct ScheduleWindows {
    let schedule: ParentCommand.Schedule
    let timeZone: TimeZone

    private var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }

    private func minutes(_ text: String) -> Int {
        let parts = text.split(separator: ":").compactMap { Int($0) }
        return parts.count == 2 ? parts[0] * 60 + parts[1] : 0
    }

    /// Whether a window starting on a day with this weekday (1 = Sunday) exists.
    private func startsOn(weekday: Int) -> Bool {
        switch schedule.repeat ?? .none {
        case .none, .daily: return true
        case .weekdays: return schedule.isOvernight ? (1...5).contains(weekday) : (2...6).contains(weekday)
        case .weekends: return schedule.isOvernight ? weekday == 6 || weekday == 7 : weekday == 1 || weekday == 7
        }
    }

    /// Windows starting on the local days around `t`.
    private func windows(near t: Timestamp) -> [(start: Timestamp, end: Timestamp)] {
        let day = calendar.startOfDay(for: t.date)
        return (-1...7).compactMap { offset in
            guard let midnight = calendar.date(byAdding: .day, value: offset, to: day), startsOn(weekday: calendar.component(.weekday, from: midnight)),
                let start = calendar.date(byAdding: .minute, value: minutes(schedule.start), to: midnight)
            else { return nil }
            let endDay = schedule.isOvernight ? calendar.date(byAdding: .day, value: 1, to: midnight)! : midnight
            guard let end = calendar.date(byAdding: .minute, value: minutes(schedule.end), to: endDay) else { return nil }
            return (Timestamp(start), Timestamp(end))
        }
    }

    func window(containing t: Timestamp) -> (start: Timestamp, end: Timestamp)? {
        windows(near: t).first { $0.start <= t && t < $0.end }
    }

    func nextBoundary(after t: Timestamp) -> Timestamp? {
        windows(near: t).flatMap { [$0.start, $0.end] }.filter { $0 > t }.min()
    }
}
