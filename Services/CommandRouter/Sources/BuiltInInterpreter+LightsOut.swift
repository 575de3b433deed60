import Foundation

extension CommandBuilder {
    /// Evening starts from this time are lights out; an earlier whole-device block from a time is a question.
    static let lightsOutFrom = LocalTime(hour: 18, minute: 0)!
    /// Small-hours starts before this, written as such ("midnight", "1am"), are lights out too.
    static let lightsOutUntil = LocalTime(hour: 5, minute: 0)!

    /// "No screens after 8 tonight", "screens off at 9:30pm on school nights", "no screens from 9pm
    /// to 7am": turning the whole device off from an evening time, until a morning written as such
    /// or with no end, is a bedtime (ending at 07:00 by default; one-off unless days are named). Apps
    /// or categories, a length, a daytime start or an end that may be in the evening are not: nil,
    /// and the block reads as usual.
    func lightsOut(needsTarget: Bool) -> Result<ParentCommand, Question>? {
        let starts = slots.windows.map(\.start) + slots.startTimes + slots.afterTimes
        let ends = slots.windows.map(\.end) + slots.endTimes + slots.untilTimes
        guard slots.apps.isEmpty, slots.categories.isEmpty, !slots.restrictions, slots.hasTarget || !needsTarget,
              slots.kinds.allSatisfy({ $0 == .bedtime }), slots.durations.isEmpty, slots.conditions.isEmpty, !slots.futureStart,
              slots.periods.allSatisfy({ $0 == .tonight }), starts.count == 1, let clock = starts[0].clock,
              ends.count <= 1, ends.allSatisfy(Self.isMorning)
        else { return nil }
        let start = TimeResolver.scheduleStart(clock, kind: .bedtime, evening: true)
        let written = clock.meridiem != nil || clock.exact
        guard start >= Self.lightsOutFrom || (written && start < Self.lightsOutUntil) else { return nil }
        return schedule(.bedtime)
    }

    /// An end written as a morning time: "7am", "07:00", "7 in the morning".
    private static func isMorning(_ expression: TimeExpression) -> Bool {
        if expression.part == .morning { return true }
        guard let clock = expression.clock, clock.hour < 12 else { return false }
        return clock.meridiem == .am || clock.exact
    }
}
