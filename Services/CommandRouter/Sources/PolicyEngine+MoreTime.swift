import Foundation
import GuardianShared

extension PolicyEngine {
    /// How far ahead a limit about to begin still counts as the current one ("10 more minutes"
    /// a few minutes before bedtime).
    static let upcomingLimit: Double = 60 * 60

    /// `extend`, more time for the child on the current limit: the rules with the time added, or
    /// why there is no time to add (nothing limits the child now or within `upcomingLimit`, or
    /// only a block on everything does and the command names apps or categories).
    ///
    /// - An allowance running now (an `allow` for a while) for what the command names (anything,
    ///   if it names nothing) ends that much later, or at the command's `until`.
    /// - Otherwise, while a block or schedule applies, or before one begins within the hour, an
    ///   exemption lets the child use what the command names (everything, if it names nothing)
    ///   from now until that much after the limit would have begun (now, if it applies already),
    ///   or until the command's `until`. The limit then applies again as before.
    ///
    /// More time never lengthens a block.
    func moreTime(_ command: ParentCommand, id: String, now: Timestamp, rules: [RestrictionRule]) -> Result<[RestrictionRule], CommandRejection> {
        let named = RestrictionRule(
            id: id, commandId: id, kind: .exemption, apps: command.apps, categories: command.categories?.map(\.rawValue), message: nil,
            condition: nil, from: now, until: nil, schedule: nil)
        let everything = named.apps == nil && named.categories == nil
        func later(_ base: Timestamp) -> Timestamp? {
            command.durationSeconds.map { base.adding(seconds: Double($0)) } ?? command.untilDate.map(Timestamp.init)
        }
        var rules = rules
        let allowances = rules.indices.filter { index in
            let rule = rules[index]
            guard rule.kind == .exemption, let until = rule.until, rule.from <= now, until > now else { return false }
            return everything || rule.overlaps(named)
        }
        if let index = allowances.max(by: { rules[$0].until! < rules[$1].until! }), let end = later(rules[index].until!) {
            rules[index].until = max(rules[index].until!, end)
            return .success(rules)
        }
        /// Whether the exemption would lift a rule in effect at `t`, and whether one it cannot (a block on everything) is.
        func limits(at t: Timestamp) -> (lifted: Bool, wholeDevice: Bool) {
            let applying = Set(restrictions(rules, at: t).map(\.id))
            let limiting = rules.filter { applying.contains($0.id) }
            let whole = limiting.contains { $0.apps == nil && $0.categories == nil }
            return (limiting.contains { $0.isCovered(by: named) }, whole && !everything)
        }
        var begins: Timestamp?
        for t in [now] + (nextChange(rules, after: now).map { [$0] } ?? []) where t.date.timeIntervalSince(now.date) <= Self.upcomingLimit {
            let limit = limits(at: t)
            if limit.wholeDevice {
                return .failure(CommandRejection("everything is blocked, so more time can only be for everything, not for some apps"))
            }
            if limit.lifted {
                begins = t
                break
            }
        }
        guard let begins else {
            return .failure(CommandRejection("nothing limits \(everything ? "the child" : "that") now or within the hour, so there is no time to add"))
        }
        guard let end = later(begins), end > begins else {
            return .failure(CommandRejection("that time comes before the limit begins, so it adds no time"))
        }
        var exemption = named
        exemption.id = "\(id)-exemption"
        exemption.until = end
        rules.append(exemption)
        return .success(rules)
    }
}
