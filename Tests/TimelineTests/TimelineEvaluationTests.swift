import Foundation
@testable import GuardianTimeline
import GuardianTimelineEvaluation
import Testing

@Suite("labelled evaluation")
struct TimelineEvaluationTests {
    static let week = LabelledDays.training(days: 7)
    var week: LabelledDays { Self.week }

    /// Published days that say exactly what the truth says (`relabel` changes the categories).
    func days(from person: LabelledDays.PersonDays, relabel: (TimelineCategory) -> TimelineCategory = { $0 }) -> [DayTimeline] {
        var spans: [SlotSpan] = []
        for slot in person.truth {
            var cuts = [slot.start, slot.end]
            for hole in person.noData where hole.lowerBound < slot.end && hole.upperBound > slot.start {
                cuts += [max(hole.lowerBound, slot.start), min(hole.upperBound, slot.end)]
            }
            cuts = Array(Set(cuts)).sorted()
            for (from, to) in zip(cuts, cuts.dropFirst()) {
                let gap = person.noData.contains { $0.contains(from) }
                spans.append(SlotSpan(
                    slot: TimeSlot(start: from, category: gap ? .unknown : relabel(slot.category), confidence: 1, activity: gap ? .unknown : .stationary, location: nil),
                    end: to))
            }
        }
        let dates = DayTimeline.dates(from: week.dayStarts[0], to: week.dayStarts[7], timeZone: week.timeZone)
        let merged = spans.merged()
        return dates.compactMap { DayTimeline(date: $0, spans: merged, timeZone: week.timeZone) }
    }

    @Test("the synthetic days: truth covers every day, no events where the phone was off, one 25-hour day, nights through midnight")
    func generator() throws {
        let starts = week.dayStarts
        #expect(zip(starts, starts.dropFirst()).contains { $1 - $0 == 25 * 60 * minute })
        for person in week.people {
            #expect(person.truth.first?.start == starts[0] && person.truth.last!.end >= starts[7])
            #expect(zip(person.truth, person.truth.dropFirst()).allSatisfy { $0.end == $1.start && $0.category != $1.category })
            #expect(!person.noData.isEmpty)
            for hole in person.noData {
                #expect(!person.events.motion.contains { hole.contains($0.timestamp) })
                #expect(!person.events.locations.contains { hole.contains($0.timestamp) })
            }
            #expect(person.events.motion.count > 5_000)
        }
        let nightWorker = try #require(week.people.first { $0.person.routine == .nightWorker })
        #expect(starts.dropFirst().contains { midnight in nightWorker.truth.contains { $0.category == .work && $0.start < midnight && $0.end > midnight } })
        let again = LabelledDays.training(days: 7)
        #expect(again.people.map(\.events) == week.people.map(\.events))
        #expect(LabelledDays.heldOut(days: 7).people.map(\.events.motion.count) != week.people.map(\.events.motion.count))
    }

    @Test("the score: the truth itself scores full marks, and every slot wrong scores none")
    func score() throws {
        let person = week.people[0]
        let perfect = TimelineScore(days: days(from: person), truth: person, from: week.dayStarts[0], to: week.dayStarts[7])
        #expect(perfect.accuracy == 1 && perfect.transitionRecall == 1 && perfect.unknownShare == 0)
        #expect(perfect.slots == perfect.truthSlots && perfect.slotTimeWithoutData == 0)
        #expect(perfect.transitions > 50)
        let shifted = TimelineScore(
            days: days(from: person) { $0 == .sleep ? .leisure : $0 }, truth: person, from: week.dayStarts[0], to: week.dayStarts[7])
        #expect(shifted.accuracy(of: .sleep) == 0 && shifted.accuracy(of: .work) == 1)
        #expect(shifted.confusion[.sleep]?[.leisure] == perfect.time(of: .sleep))
        let none = TimelineScore(days: [], truth: person, from: week.dayStarts[0], to: week.dayStarts[7])
        #expect(none.accuracy == 0 && none.unknownShare == 1 && none.transitionRecall == 0)
    }

    @Test("transitions are split by whether the phone showed them: a move or the charger near the change")
    func shownTransitions() throws {
        let (from, to) = (week.dayStarts[0], week.dayStarts[7])
        let carried = try #require(week.people.first { !$0.person.leavesPhoneDown })
        let perfect = TimelineScore(days: days(from: carried), truth: carried, from: from, to: to)
        #expect(perfect.shownTransitions > 0 && perfect.shownTransitions <= perfect.transitions)
        #expect(perfect.shownTransitionRecall == 1 && perfect.unshownTransitionRecall == 1)
        let none = TimelineScore(days: [], truth: carried, from: from, to: to)
        #expect(none.shownTransitions == perfect.shownTransitions && none.shownTransitionRecall == 0)

        // With every move made still and no charger, the phone showed nothing.
        var still = carried
        still.events.motion = still.events.motion.map { MotionEvent(timestamp: $0.timestamp, activity: .stationary) }
        still.events.charges = []
        let blind = TimelineScore(days: days(from: still), truth: still, from: from, to: to)
        #expect(blind.shownTransitions == 0 && blind.transitions == perfect.transitions && blind.unshownTransitionRecall == 1)

        // A phone left on a table at home shows fewer of its person's changes than a carried one.
        let newer = LabelledDays.training(days: 3, routines: SyntheticPerson.Routine.allCases)
        func shownShare(_ person: LabelledDays.PersonDays) -> Double {
            let score = TimelineScore(days: [], truth: person, from: newer.dayStarts[0], to: newer.dayStarts[3])
            return Double(score.shownTransitions) / Double(score.transitions)
        }
        let tables = newer.people.filter(\.person.leavesPhoneDown).map(shownShare)
        let pockets = newer.people.filter { !$0.person.leavesPhoneDown }.map(shownShare)
        #expect(!tables.isEmpty && !pockets.isEmpty)
        let tableShare = tables.reduce(0, +) / Double(tables.count), pocketShare = pockets.reduce(0, +) / Double(pockets.count)
        #expect(tableShare < pocketShare)
        let evaluation = try TimelineEvaluation(week, name: "training")
        #expect(evaluation.report.contains("where the phone showed the change:"))
        // The recall goal says how far these events let it go: every shown change found, the others as now.
        let score = evaluation.overall
        let reachable = Double(score.shownTransitions + score.transitionsFound - score.shownTransitionsFound) / Double(score.transitions)
        #expect(reachable >= score.transitionRecall && reachable <= 1)
        #expect(evaluation.stageGoals.contains { $0.goal.contains(String(format: "at most %.1f%%", reachable * 100)) })
    }

    @Test("every walk shown: the same days, a table's phone showing its person's changes as a carried one does")
    func everyWalkShown() throws {
        let routines = SyntheticPerson.Routine.allCases
        let asDrawn = LabelledDays.training(days: 3, routines: routines)
        let shown = LabelledDays(people: 2 * routines.count, days: 3, seed: LabelledDays.trainingSeed, routines: routines, everyWalkShown: true)
        #expect(shown.people.map(\.truth) == asDrawn.people.map(\.truth))
        #expect(shown.people.map(\.events.charges) == asDrawn.people.map(\.events.charges))
        func walks(_ person: LabelledDays.PersonDays) -> Int { person.events.motion.filter { $0.activity == .walking }.count }
        func shownShare(_ person: LabelledDays.PersonDays) -> Double {
            let score = TimelineScore(days: [], truth: person, from: asDrawn.dayStarts[0], to: asDrawn.dayStarts[3])
            return Double(score.shownTransitions) / Double(score.transitions)
        }
        var tables = 0
        for (drawn, all) in zip(asDrawn.people, shown.people) {
            #expect(TimelineEvaluation.PhoneAtHome(all.person) == .pocket)
            if drawn.person.leavesPhoneDown {
                tables += 1
                #expect(walks(all) > walks(drawn) && shownShare(all) > shownShare(drawn))
            } else {
                #expect(all.events == drawn.events)
            }
        }
        #expect(tables > 0)
    }

    @Test("built offline, the training week meets the accuracy, slot count and unknown goals")
    func pipeline() throws {
        let evaluation = try TimelineEvaluation(week, name: "training")
        let score = evaluation.overall
        print(evaluation.report)
        #expect(score.accuracy >= 0.9)
        #expect(TimelineCategory.learnable.compactMap { score.accuracy(of: $0) }.allSatisfy { $0 >= 0.8 })
        #expect(abs(score.slotRatio - 1) <= 0.2)
        #expect(score.unknownShare <= 0.05)
        #expect(score.slotTimeWithoutData <= 6 * 60_000 * Int64(week.people.count))
    }

    @Test("three corrections of a systematic mistake fix its later occurrences, one kind at a time")
    func corrections() throws {
        let experiment = try CorrectionExperiment(week)
        #expect(experiment.outcomes.count == week.people.count)
        #expect(experiment.outcomes.allSatisfy { $0.later >= 1 && $0.fixed[0] == 0 })
        #expect(experiment.outcomes.reduce(0) { $0 + $1.later } >= 12)
        #expect(experiment.share(after: 3) >= 0.9)
        #expect(experiment.outcomes.allSatisfy { $0.collateral <= $0.occurrences * 2 })
    }
}
