import Foundation
import GuardianTimeline

/// Builds every person's timeline offline, as `guardian timeline build` does, and scores it
/// against the truth: overall, per routine, and the goals `guardian timeline evaluate` checks.
public struct TimelineEvaluation: Sendable {
    public var data: LabelledDays
    public var overall = TimelineScore()
    public var byRoutine: [SyntheticPerson.Routine: TimelineScore] = [:]
    public var published: [String: [DayTimeline]] = [:]
    /// Which days these are, for the report ("held-out", "training").
    public var name: String

    public init(_ data: LabelledDays, name: String = "held-out") throws {
        self.data = data
        self.name = name
        let dayStarts = data.dayStarts
        for person in data.people {
            let days = try OfflineTimeline.days(person.events, timeZone: data.timeZone)
            published[person.person.deviceId] = days
            let score = TimelineScore(days: days, truth: person, from: dayStarts[0], to: dayStarts[data.days])
            overall.add(score)
            byRoutine[person.person.routine, default: TimelineScore()].add(score)
        }
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
            lines.append("\(routine.rawValue.padding(toLength: 14, withPad: " ", startingAt: 0)) accuracy \(percent(part.accuracy))  transitions \(percent(part.transitionRecall))  slots \(part.slots)/\(part.truthSlots)  unknown \(percent(part.unknownShare))")
        }
        lines += [
            "",
            "time-weighted accuracy:            \(percent(score.accuracy))",
            "transition recall (within 10 min): \(percent(score.transitionRecall))  (\(score.transitionsFound) of \(score.transitions))",
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
        for (goal, met) in goals { lines.append("\(met ? "met    " : "NOT MET") \(goal)") }
        return lines.joined(separator: "\n")
    }
}
