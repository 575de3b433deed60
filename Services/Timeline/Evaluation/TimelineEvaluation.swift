import Foundation
import GuardianTimeline

/// Builds every person's timeline offline, as `guardian timeline build` does, and scores it
/// against the truth: overall, per routine, and the goals `guardian timeline evaluate` checks.
/// Besides the whole period built at once, it scores a device's first days (built from their
/// events alone, with no history) and the days after two weeks of history.
public struct TimelineEvaluation: Sendable {
    /// How much a build knew when it labelled the days scored.
    public enum Stage: String, Sendable, CaseIterable, Hashable {
        /// The first day, built from its own events only.
        case firstDay = "first day"
        /// The first three days, built from their own events only.
        case firstThreeDays = "first 3 days"
        /// The days after the first two weeks, built with everything before them.
        case afterTwoWeeks = "after 2 weeks"
        /// Every day, built at once.
        case wholePeriod = "whole period"

        /// The stage's name as a command-line option: `first-day`, `whole-period`.
        public var option: String { rawValue.replacingOccurrences(of: " ", with: "-") }

        /// The local days scored (`nil` when the period is too short), and the day the events are cut after.
        func days(of period: Int) -> (scored: Range<Int>, eventsUntil: Int)? {
            switch self {
            case .firstDay: (0..<1, 1)
            case .firstThreeDays: period >= 3 ? (0..<3, 3) : nil
            case .afterTwoWeeks: period > 14 ? (14..<period, period) : nil
            case .wholePeriod: (0..<period, period)
            }
        }
    }

    public var data: LabelledDays
    /// The whole period.
    public var overall: TimelineScore { stages[.wholePeriod]?.overall ?? TimelineScore() }
    public var byRoutine: [SyntheticPerson.Routine: TimelineScore] { stages[.wholePeriod]?.byRoutine ?? [:] }
    /// Each stage's score, overall and per routine.
    public var stages: [Stage: (overall: TimelineScore, byRoutine: [SyntheticPerson.Routine: TimelineScore])] = [:]
    /// What a phone shows of a person at home.
    public enum PhoneAtHome: String, Sendable, CaseIterable, Hashable {
        /// Carried: walks about the home are seen.
        case pocket = "phone in a pocket"
        /// On a table, most walks unseen, but put on the charger at bedtime and off on getting up.
        case tableCharged = "table, charged"
        /// On a table and never charged overnight: the home shows almost nothing.
        case tableSilent = "table, no charger"

        public init(_ person: SyntheticPerson) {
            self = !person.leavesPhoneDown || person.showsEveryWalk ? .pocket : person.chargesOvernight ? .tableCharged : .tableSilent
        }
    }

    /// Each stage's score of the newer routines' people by what their phone shows at home.
    public var byPhoneAtHome: [Stage: [PhoneAtHome: TimelineScore]] = [:]
    /// The whole period's days, by device.
    public var published: [String: [DayTimeline]] { built[.wholePeriod] ?? [:] }
    /// Each stage's build, by device: the days it published up to the events' cut.
    public var built: [Stage: [String: [DayTimeline]]] = [:]
    /// Which days these are, for the report ("held-out", "training").
    public var name: String

    public init(_ data: LabelledDays, name: String = "held-out", stages: [Stage] = [.wholePeriod]) throws {
        self.data = data
        self.name = name
        let dayStarts = data.dayStarts
        var builds: [Int: [String: [DayTimeline]]] = [:]
        for stage in stages {
            guard let (scored, cut) = stage.days(of: data.days) else { continue }
            var overall = TimelineScore(), byRoutine: [SyntheticPerson.Routine: TimelineScore] = [:]
            for person in data.people {
                let id = person.person.deviceId
                let days = try builds[cut]?[id] ?? {
                    var events = person.events
                    if cut < data.days {
                        events.motion.removeAll { $0.timestamp >= dayStarts[cut] }
                        events.locations.removeAll { $0.timestamp >= dayStarts[cut] }
                        events.charges.removeAll { $0.timestamp >= dayStarts[cut] }
                    }
                    return try OfflineTimeline.days(events, timeZone: data.timeZone)
                }()
                builds[cut, default: [:]][id] = days
                built[stage, default: [:]][id] = days
                let score = TimelineScore(days: days, truth: person, from: dayStarts[scored.lowerBound], to: dayStarts[scored.upperBound])
                overall.add(score)
                byRoutine[person.person.routine, default: TimelineScore()].add(score)
                if !SyntheticPerson.Routine.everyday.contains(person.person.routine) {
                    byPhoneAtHome[stage, default: [:]][PhoneAtHome(person.person), default: TimelineScore()].add(score)
                }
            }
            self.stages[stage] = (overall, byRoutine)
        }
    }

    /// The goals of issue #28 (first days and days after two weeks for every kind of person,
    /// transitions and slot count over the whole period), each with whether it is met.
    public var stageGoals: [(goal: String, met: Bool)] {
        var goals: [(String, Bool)] = []
        for (stage, floor) in [(Stage.firstDay, 0.9), (.firstThreeDays, 0.9), (.afterTwoWeeks, 0.95)] {
            guard let score = stages[stage] else { continue }
            let worst = score.byRoutine.min { $0.value.accuracy < $1.value.accuracy }
            let note = worst.map {
                String(format: " (lowest: %@ %.1f%%%@)", $0.key.rawValue, $0.value.accuracy * 100,
                       phonesAtHome[$0.key].map { "; phones at home: " + Self.describe($0) } ?? "")
            } ?? ""
            goals.append(("\(stage.rawValue): accuracy >= \(Int(floor * 100))% for every kind of person\(note)", score.byRoutine.values.allSatisfy { $0.accuracy >= floor }))
        }
        // Finding every change the phone showed, and the others as often as now: the most these events allow.
        let reachable = overall.transitions > 0
            ? Double(overall.shownTransitions + overall.transitionsFound - overall.shownTransitionsFound) / Double(overall.transitions) : 1
        let bound = String(format: " (%.1f%%; at most %.1f%% finding every change the phone showed)", overall.transitionRecall * 100, reachable * 100)
        goals.append(("transition recall >= 90% within 10 min" + bound, overall.transitionRecall >= 0.9))
        goals.append(("slot count within 15% of truth", abs(overall.slotRatio - 1) <= 0.15))
        return goals
    }

    /// What each newer kind's people's phones show at home (the everyday kinds carry theirs):
    /// a kind's figures depend on it more than on the kind.
    public var phonesAtHome: [SyntheticPerson.Routine: [PhoneAtHome]] {
        Dictionary(grouping: data.people.map(\.person).filter { !SyntheticPerson.Routine.everyday.contains($0.routine) }, by: \.routine)
            .mapValues { $0.map(PhoneAtHome.init) }
    }

    /// `table, no charger ×2`, or `phone in a pocket, table, charged`.
    public static func describe(_ phones: [PhoneAtHome]) -> String {
        PhoneAtHome.allCases.compactMap { kind in
            let count = phones.filter { $0 == kind }.count
            return count == 0 ? nil : count == 1 ? kind.rawValue : "\(kind.rawValue) ×\(count)"
        }.joined(separator: ", ")
    }

    /// One device's published slots (of the whole period, or of `stage`'s build) beside what the person did for most
    /// of each (`*` where they differ): for finding where the day goes wrong. With `truth`, what
    /// the person did is listed too, in time order (`>` lines; `!` where no slot boundary is
    /// within `TimelineScore.transitionTolerance` of its start though the phone showed the change,
    /// `?` where it showed nothing of it), and when the phone went on or off
    /// its charger (`charger` lines).
    public func listing(of deviceId: String, truth: Bool = false, stage: Stage = .wholePeriod) -> String? {
        guard let days = built[stage]?[deviceId], let person = data.people.first(where: { $0.person.deviceId == deviceId }) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = data.timeZone
        func clock(_ instant: Int64) -> String {
            let parts = calendar.dateComponents([.hour, .minute], from: Date(milliseconds: instant))
            return String(format: "%02d:%02d", parts.hour!, parts.minute!)
        }
        var lines: [(at: Int64, text: String)] = days.flatMap { day in
            day.slots.map { slot in
                let most = person.category(from: slot.start, to: slot.end)
                return (slot.start, "\(most == slot.category ? " " : "*") \(day.date) \(clock(slot.start))-\(clock(slot.end))  \(slot.category.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)) \(slot.activity.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)) truth \(most.rawValue)")
            }
        }
        if truth, let first = days.first?.dayStart, let last = days.last?.dayEnd {
            for charge in person.events.charges where charge.timestamp >= first && charge.timestamp < last {
                lines.append((charge.timestamp, "      charger \(charge.charging ? "on" : "off") \(clock(charge.timestamp))"))
            }
            let starts = days.flatMap(\.slots).map(\.start), signs = person.signs
            for slot in person.truth where slot.end > first && slot.start < last {
                let found = starts.contains { abs($0 - slot.start) <= TimelineScore.transitionTolerance }
                let shown = signs.near(slot.start, within: TimelineScore.transitionTolerance)
                lines.append((slot.start, "    \(found ? ">" : shown ? "!" : "?") \(clock(slot.start))-\(clock(slot.end))  \(slot.category.rawValue)"))
            }
        }
        return lines.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element.text).joined(separator: "\n")
    }

    /// Accuracy, transition recall and slot count of each stage side by side, per kind of person.
    public var stageReport: String {
        let present = Stage.allCases.filter { stages[$0] != nil }
        guard !present.isEmpty else { return "" }
        func cell(_ score: TimelineScore?) -> String {
            guard let score else { return "–".leftPadded(22) }
            let text = String(format: "%5.1f%% %5.1f%% %+4.0f%%", score.accuracy * 100, score.transitionRecall * 100, (score.slotRatio - 1) * 100)
            return text.leftPadded(22)
        }
        var lines = [
            "by how much history the build had (accuracy, transition recall, slot count vs truth):",
            "".padding(toLength: 18, withPad: " ", startingAt: 0) + present.map { $0.rawValue.leftPadded(22) }.joined(),
        ]
        for routine in SyntheticPerson.Routine.allCases where stages.values.contains(where: { $0.byRoutine[routine] != nil }) {
            lines.append(routine.rawValue.padding(toLength: 18, withPad: " ", startingAt: 0) + present.map { cell(stages[$0]?.byRoutine[routine]) }.joined())
        }
        lines.append("overall".padding(toLength: 18, withPad: " ", startingAt: 0) + present.map { cell(stages[$0]?.overall) }.joined())
        let recalls = present.map { stage -> String in
            guard let score = stages[stage]?.overall else { return "–".leftPadded(22) }
            return String(format: "%5.1f%% / %5.1f%%", score.shownTransitionRecall * 100, score.unshownTransitionRecall * 100).leftPadded(22)
        }
        lines.append("transition recall where the phone showed the change / showed nothing:")
        lines.append("".padding(toLength: 18, withPad: " ", startingAt: 0) + recalls.joined())
        if !byPhoneAtHome.isEmpty {
            lines.append("of the newer kinds, by what the phone shows at home:")
            for kind in PhoneAtHome.allCases where byPhoneAtHome.values.contains(where: { $0[kind] != nil }) {
                lines.append(kind.rawValue.padding(toLength: 18, withPad: " ", startingAt: 0) + present.map { cell(byPhoneAtHome[$0]?[kind]) }.joined())
            }
            lines.append("each newer kind's people, by what their phone shows at home:")
            let phones = phonesAtHome
            for routine in SyntheticPerson.Routine.allCases {
                guard let kinds = phones[routine] else { continue }
                lines.append(routine.rawValue.padding(toLength: 22, withPad: " ", startingAt: 0) + Self.describe(kinds))
            }
        }
        lines.append("")
        lines.append("a day a person would draw (issue #28; by kind of person and by history, newer than #21's):")
        for (goal, met) in stageGoals { lines.append("\(met ? "met    " : "NOT MET") \(goal)") }
        return lines.joined(separator: "\n")
    }

    /// The goals of issue #21, each with whether `overall` meets it.
    public var goals: [(goal: String, met: Bool)] {
        let categories = TimelineCategory.learnable.compactMap { overall.accuracy(of: $0) }
        return [
            ("time-weighted accuracy >= 90% overall", overall.accuracy >= 0.9),
            ("time-weighted accuracy >= 80% in every category", categories.allSatisfy { $0 >= 0.8 }),
            ("transition recall >= 95% within 10 min", overall.transitionRecall >= 0.95),
            ("slot count within 20% of truth", abs(overall.slotRatio - 1) <= 0.2),
            ("unknown <= 5% of the time", overall.unknownShare <= 0.05),
        ]
    }

    public var report: String {
        func percent(_ value: Double?) -> String { value.map { String(format: "%5.1f%%", $0 * 100) } ?? "    –" }
        func hours(_ ms: Int64) -> String { String(format: "%6.1f", Double(ms) / 3_600_000) }
        let score = overall
        var lines = [
            "\(name) synthetic days: \(data.people.count) people × \(data.days) days from \(data.firstDay) (\(data.timeZone.identifier))",
            "",
            "category    truth h  accuracy  transitions into  slots (truth)  unknown",
        ]
        func row(_ name: String, _ time: Int64, _ accuracy: Double?, _ recall: Double?, _ slots: Int, _ truth: Int, _ unknown: Double?) -> String {
            let counts = "\(slots) (\(truth))".leftPadded(13)
            return "\(name.padding(toLength: 10, withPad: " ", startingAt: 0))  \(hours(time))    \(percent(accuracy))            \(percent(recall))  \(counts)   \(percent(unknown))"
        }
        for category in TimelineCategory.learnable where score.time(of: category) > 0 {
            lines.append(row(
                category.rawValue, score.time(of: category), score.accuracy(of: category), score.transitionRecall(into: category),
                score.slotsOf[category] ?? 0, score.truthSlotsOf[category] ?? 0, score.unknownShare(of: category)))
        }
        if let unknownSlots = score.slotsOf[.unknown] { lines.append("(unknown slots: \(unknownSlots))") }
        lines.append(row("overall", score.totalTime, score.accuracy, score.transitionRecall, score.slots, score.truthSlots, score.unknownShare))
        lines.append("")
        for routine in SyntheticPerson.Routine.allCases {
            guard let part = byRoutine[routine] else { continue }
            lines.append("\(routine.rawValue.padding(toLength: 18, withPad: " ", startingAt: 0)) accuracy \(percent(part.accuracy))  transitions \(percent(part.transitionRecall))  slots \(part.slots)/\(part.truthSlots)  unknown \(percent(part.unknownShare))")
        }
        lines += [
            "",
            "time-weighted accuracy:            \(percent(score.accuracy))",
            "transition recall (within 10 min): \(percent(score.transitionRecall))  (\(score.transitionsFound) of \(score.transitions))",
            "  where the phone showed the change: \(percent(score.shownTransitionRecall))  (\(score.shownTransitionsFound) of \(score.shownTransitions): a move or the charger within 10 min)",
            "  where it showed nothing:           \(percent(score.unshownTransitionRecall))  (\(score.transitionsFound - score.shownTransitionsFound) of \(score.transitions - score.shownTransitions))",
            "slots vs truth:                    \(score.slots) vs \(score.truthSlots)  (\(String(format: "%+.0f%%", (score.slotRatio - 1) * 100)))",
            "unknown:                           \(percent(score.unknownShare)) of the time",
            "slot time where there was no data: \(String(format: "%.1f", Double(score.slotTimeWithoutData) / 60_000)) min",
            "",
            "confusion matrix (hours; rows: truth, columns: guess)",
        ]
        let columns = TimelineCategory.allCases
        lines.append("".padding(toLength: 10, withPad: " ", startingAt: 0) + columns.map { String($0.rawValue.prefix(7)).leftPadded(8) }.joined())
        for truth in TimelineCategory.learnable where score.time(of: truth) > 0 {
            let row = columns.map { String(format: "%.1f", Double(score.confusion[truth]?[$0] ?? 0) / 3_600_000).leftPadded(8) }
            lines.append(truth.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0) + row.joined())
        }
        lines.append("")
        lines.append("the first timeline's goals (issue #21; whole period, all people together):")
        for (goal, met) in goals { lines.append("\(met ? "met    " : "NOT MET") \(goal)") }
        if stages.count > 1 { lines += ["", stageReport] }
        return lines.joined(separator: "\n")
    }
}
