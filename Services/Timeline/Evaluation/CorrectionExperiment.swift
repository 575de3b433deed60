import Foundation
import GuardianTimeline

/// How many corrections fix a systematic mistake: a person who calls a kind of slot something
/// else than the timeline guesses corrects its first occurrences (the published slot holding
/// each); the timeline retrains and relabels; the later occurrences are counted.
public struct CorrectionExperiment: Sendable {
    /// A kind of slot a routine's person labels their own way.
    public struct Habit: Sendable {
        public var name: String
        public var routine: SyntheticPerson.Routine
        public var category: TimelineCategory
        /// Whether a slot is of the kind (its span, its weekday 0 = Monday and local start in minutes, what was really done).
        public var matches: @Sendable (SlotSpan, SyntheticPerson, _ weekday: Int, _ minute: Int, _ truth: TimelineCategory) -> Bool
    }

    /// One habit of one person: the later occurrences labelled as corrected after 0, 1, 2, 3 corrections.
    public struct Outcome: Sendable {
        public var habit: String
        public var deviceId: String
        public var occurrences: Int
        /// `fixed[k]`: later occurrences (after the first 3) labelled as corrected after `k` corrections.
        public var fixed: [Int]
        public var later: Int
        /// Slots of other kinds that took the corrected category after 3 corrections (and had not before).
        public var collateral: Int
    }

    public static let habits: [Habit] = [
        Habit(name: "lunch out is work (business lunches)", routine: .officeWorker, category: .work) { span, person, weekday, _, _ in
            span.slot.activity == .stationary && weekday < 5 && span.slot.location.map { $0.distance(to: person[.lunch]) < 150 } == true
        },
        Habit(name: "the walk to school is family (walked by a parent)", routine: .schoolChild, category: .family) { span, _, weekday, minute, truth in
            span.slot.activity == .walking && weekday < 5 && (6 * 60 + 30...9 * 60).contains(minute) && truth == .commute
        },
        Habit(name: "the evening before a night shift is family", routine: .nightWorker, category: .family) { span, person, weekday, minute, truth in
            span.slot.activity == .stationary && weekday < 4 && (18 * 60...21 * 60 + 30).contains(minute) && truth == .leisure
                && span.slot.location.map { $0.distance(to: person[.home]) < 150 } == true
        },
    ]

    public var outcomes: [Outcome] = []

    public init(_ data: LabelledDays) throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = data.timeZone
        for person in data.people {
            for habit in Self.habits where habit.routine == person.person.routine {
                outcomes.append(try Self.run(habit, person, timeZone: data.timeZone, calendar: calendar))
            }
        }
    }

    static func run(_ habit: Habit, _ person: LabelledDays.PersonDays, timeZone: TimeZone, calendar: Calendar) throws -> Outcome {
        let events = person.events
        let until = (events.motion.map(\.timestamp) + events.locations.map(\.timestamp)).max() ?? 0
        let state = TimelineGenerator(timeZone: timeZone).rebuild(motion: events.motion, locations: events.locations, until: until).state
        let spans = state.spans
        let occurrences = spans.indices.filter { index in
            let span = spans[index]
            let date = Date(timeIntervalSince1970: Double(span.start) / 1000)
            let weekday = (calendar.component(.weekday, from: date) + 5) % 7
            let minute = calendar.component(.hour, from: date) * 60 + calendar.component(.minute, from: date)
            return habit.matches(span, person.person, weekday, minute, person.category(from: span.start, to: span.end))
        }
        let later = Array(occurrences.dropFirst(3))
        var examples: [LabelledSlot] = []
        var fixed: [Int] = []
        var before: TimelineState?
        var labelled = state
        for corrections in 0...3 {
            let classifier = try SlotClassifier.train(examples: examples, places: spans, timeZone: timeZone)
            labelled = classifier.label(state, timeZone: timeZone)
            if corrections == 0 { before = labelled }
            fixed.append(later.count { labelled.slots[$0].category == habit.category })
            guard corrections < 3, corrections < occurrences.count else { continue }
            // The person corrects the published slot holding the occurrence.
            let index = occurrences[corrections]
            let shown = labelled.spans.mergedGroups().first { $0.slots.contains(index) }!.span
            examples.append(LabelledSlot(shown, category: habit.category))
        }
        let kind = Set(occurrences)
        let collateral = labelled.slots.indices.count { index in
            !kind.contains(index) && labelled.slots[index].category == habit.category && before?.slots[index].category != habit.category
        }
        return Outcome(
            habit: habit.name, deviceId: person.person.deviceId, occurrences: occurrences.count, fixed: fixed, later: later.count,
            collateral: collateral)
    }

    /// The share of later occurrences labelled as corrected after `corrections` corrections, over every habit.
    public func share(after corrections: Int) -> Double {
        let later = outcomes.reduce(0) { $0 + $1.later }
        return later > 0 ? Double(outcomes.reduce(0) { $0 + $1.fixed[corrections] }) / Double(later) : 0
    }

    public var report: String {
        var lines = ["corrections of a systematic mistake (later occurrences labelled as corrected after 0 / 1 / 2 / 3 corrections)"]
        for outcome in outcomes {
            let shares = outcome.fixed.map { "\($0)/\(outcome.later)" }.joined(separator: " / ")
            lines.append("  \(outcome.deviceId): \(outcome.habit): \(shares); \(outcome.collateral) other slots changed")
        }
        lines.append(String(
            format: "  overall: %.0f%% / %.0f%% / %.0f%% / %.0f%%", share(after: 0) * 100, share(after: 1) * 100, share(after: 2) * 100,
            share(after: 3) * 100))
        let measured = outcomes.contains { $0.later > 0 }
        lines.append("\(measured ? (share(after: 3) >= 0.9 ? "met    " : "NOT MET") : "not measured (no later occurrences)") after 3 corrections >= 90% of later occurrences labelled as corrected")
        return lines.joined(separator: "\n")
    }
}
