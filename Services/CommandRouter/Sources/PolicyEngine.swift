import Foundation
import GuardianShared

/// What a command does to a child's rules, and which restrictions the rules mean at a given time.
struct PolicyEngine: Sendable {
    let timeZone: TimeZone

    /// When a command given at `now` asks its rules to end (nil: until lifted).
    static func end(of command: ParentCommand, now: Timestamp) -> Timestamp? {
        command.untilDate.map(Timestamp.init) ?? command.durationSeconds.map { now.adding(seconds: Double($0)) }
    }

    /// The rules after `command`, or why it cannot apply.
    func apply(_ command: ParentCommand, id: String, now: Timestamp, to rules: [RestrictionRule]) -> Result<[RestrictionRule], CommandRejection> {
        let end = Self.end(of: command, now: now)
        let categories = command.categories?.map(\.rawValue)
        func rule(_ kind: RestrictionRule.Kind, until: Timestamp? = end, schedule: ParentCommand.Schedule? = nil) -> RestrictionRule {
            RestrictionRule(
                id: "\(id)-\(kind.rawValue)", commandId: id, kind: kind, apps: command.apps, categories: categories, message: command.message,
                condition: command.condition, from: now, until: until, schedule: schedule)
        }
        var rules = prune(rules, now: now)
        switch command.action {
        case .shutdown:
            rules = adding(rule(.shutdown), to: rules)
        case .blockApp:
            rules = adding(rule(.blockApp), to: rules)
        case .warning:
            break
        case .allow:
            if end != nil {
                rules.append(rule(.exemption))
            } else {
                let lift = RestrictionRule(
                    id: id, commandId: id, kind: .exemption, apps: command.apps, categories: categories, message: nil, condition: nil, from: now,
                    until: nil, schedule: nil)
                rules = rules.filter { $0.kind != .exemption }.compactMap { $0.lifted(by: lift) }
            }
        case .extend:
            // "15 more minutes then bedtime mode": the extension may carry a follow-up schedule.
            switch moreTime(command, id: id, now: now, rules: rules) {
            case .success(let extended): rules = extended
            case .failure(let rejection): if command.schedule == nil { return .failure(rejection) }
            }
            if let schedule = command.schedule { rules.append(scheduleRule(schedule, command: command, id: id, now: now, end: nil)) }
        case .schedule:
            guard let schedule = command.schedule else { return .failure(CommandRejection("a schedule command needs a schedule")) }
            rules.append(scheduleRule(schedule, command: command, id: id, now: now, end: end))
        }
        return .success(rules)
    }

    /// Adds a block. A parent who asks again for a block already in force means one block: the new
    /// command's, ending at the later of the two ends (never sooner: that would lift the block
    /// earlier than asked), not two identical restrictions.
    private func adding(_ block: RestrictionRule, to rules: [RestrictionRule]) -> [RestrictionRule] {
        let same = { (rule: RestrictionRule) in
            rule.kind == block.kind && rule.schedule == nil && rule.condition == block.condition
                && Set(rule.apps ?? []) == Set(block.apps ?? []) && Set(rule.categories ?? []) == Set(block.categories ?? [])
        }
        // It starts now: an allowance given before it does not lift it (`RestrictionRule.isCovered`).
        var merged = block
        for rule in rules where same(rule) {
            merged.until = rule.until.flatMap { end in merged.until.map { max($0, end) } }
        }
        return rules.filter { !same($0) } + [merged]
    }

    /// A schedule's rule: recurring, or (repeat `none`) only its first window from now.
    private func scheduleRule(_ schedule: ParentCommand.Schedule, command: ParentCommand, id: String, now: Timestamp, end: Timestamp?) -> RestrictionRule {
        let kind: RestrictionRule.Kind =
            switch schedule.type {
            case .bedtime: .bedtime
            case .educational: .educational
            case .socialOnly: .socialOnly
            }
        var until = end
        if (schedule.repeat ?? ParentCommand.Schedule.Repeat.none) == ParentCommand.Schedule.Repeat.none {
            let windows = ScheduleWindows(schedule: schedule, timeZone: timeZone)
            let first = windows.window(containing: now) ?? windows.nextBoundary(after: now).flatMap { windows.window(containing: $0) }
            until = first?.end
        }
        return RestrictionRule(
            id: "\(id)-\(kind.rawValue)", commandId: id, kind: kind, apps: command.apps, categories: command.categories?.map(\.rawValue),
            message: command.message, condition: command.condition, from: now, until: until, schedule: schedule)
    }

    /// Rules that can no longer apply are dropped.
    func prune(_ rules: [RestrictionRule], now: Timestamp) -> [RestrictionRule] {
        rules.filter { $0.until.map { $0 > now } ?? true }
    }

    /// The restrictions in effect at `now`.
    func restrictions(_ rules: [RestrictionRule], at now: Timestamp) -> [ChildPolicy.Restriction] {
        let active = rules.compactMap { rule in rule.window(at: now, timeZone: timeZone).map { (rule, $0) } }
        let exemptions = active.map(\.0).filter { $0.kind == .exemption }
        let lifted = active.filter { $0.0.kind != .exemption }.compactMap { rule, window in
            exemptions.reduce(Optional(rule)) { rest, exemption in rest?.lifted(by: exemption) }.map { ($0, window) }
        }
        return lifted.map { rule, window in
            ChildPolicy.Restriction(
                id: rule.id, kind: rule.kind.rawValue, apps: rule.apps, categories: rule.categories, from: window.from, until: window.until,
                message: rule.message, commandId: rule.commandId)
        }
    }

    /// When the restrictions may next change on their own.
    func nextChange(_ rules: [RestrictionRule], after now: Timestamp) -> Timestamp? {
        rules.compactMap { $0.nextBoundary(after: now, timeZone: timeZone) }.min()
    }
}

/// Why the router refused a command.
struct CommandRejection: Error, Equatable, CustomStringConvertible {
    let reason: String
    init(_ reason: String) { self.reason = reason }
    var description: String { reason }
}
