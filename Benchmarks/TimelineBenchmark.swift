// Compiled only once guardian-bench depends on GuardianTimeline, so the package keeps building
// until Package.swift declares that target.
#if canImport(GuardianTimeline)
import Foundation
import GuardianTimeline
import GuardianTimelineEvaluation

/// Timeline generation for a synthetic week (about 20,000 motion events), whole and
/// incrementally, and retraining a device's classifier on 2,000 labelled slots.
struct TimelineBenchmark {
    var repetitions = 5
    var trainingSlots = 2_000

    func run() throws {
        let week = SyntheticMonth(firstDay: "2026-03-02", days: 7, seed: 42)
        let zone = week.timeZone
        let generator = TimelineGenerator(timeZone: zone)
        print("== timeline (synthetic week: \(week.motion.count) motion events, \(week.locations.count) locations) ==")

        let month = SyntheticMonth(firstDay: "2026-01-05", days: 21, seed: 7)
        let monthSpans = generator.rebuild(motion: month.motion, locations: month.locations, until: month.end).state.spans
        let classifier = try SlotClassifier.train(examples: month.labelled(monthSpans), places: monthSpans, timeZone: zone)

        var slots = 0
        let (segment, label) = try best {
            let update = generator.rebuild(motion: week.motion, locations: week.locations, until: week.end)
            let segmented = DispatchTime.now().uptimeNanoseconds
            let labelled = classifier.label(update.state, timeZone: zone)
            slots = labelled.slots.count
            return segmented
        }
        let total = segment + label
        print(String(format: "generate a week: %.1f ms (annotate + segment %.1f ms, label %d slots %.1f ms)   goal < 100 ms  %@",
                     total * 1000, segment * 1000, slots, label * 1000, total < 0.1 ? "met" : "NOT MET"))

        let hourAgo = week.end - 3_600_000
        let earlier = generator.rebuild(
            motion: week.motion.filter { $0.timestamp <= hourAgo }, locations: week.locations.filter { $0.timestamp <= hourAgo },
            until: hourAgo).state
        let from = earlier.resumeFrom ?? .min
        let tail = week.motion.filter { $0.timestamp >= from }
        let fixes = Array(week.locations[(week.locations.lastIndex { $0.timestamp <= from } ?? 0)...])
        let (update, _) = try best {
            guard let update = generator.update(earlier, motion: tail, locations: fixes, until: week.end) else { throw BenchmarkFailure.noAnchor }
            _ = classifier.label(update.state, from: update.changedFrom, timeZone: zone)
            return DispatchTime.now().uptimeNanoseconds
        }
        print(String(format: "incremental generation after an hour: %.2f ms (%d events re-segmented)", update * 1000, tail.count))

        // A long stretch of the same person with sparser motion, for enough labelled slots.
        let long = SyntheticMonth(firstDay: "2025-09-01", days: trainingSlots / 12, seed: 9, spacing: 60_000...240_000)
        let longSpans = generator.rebuild(motion: long.motion, locations: long.locations, until: long.end).state.spans
        let examples = Array(long.labelled(longSpans).prefix(trainingSlots))
        guard examples.count == trainingSlots else { throw BenchmarkFailure.tooFewSlots(examples.count) }
        var examplesUsed = 0
        let (train, _) = try best {
            examplesUsed = try SlotClassifier.train(examples: examples, places: Array(longSpans.prefix(trainingSlots)), timeZone: zone).exampleCount
            return DispatchTime.now().uptimeNanoseconds
        }
        print(String(format: "retrain on %d labelled slots (+ standard day = %d examples): %.0f ms   goal < 1 s  %@",
                     trainingSlots, examplesUsed, train * 1000, train < 1 ? "met" : "NOT MET"))
    }

    /// The fastest of `repetitions` runs, in seconds, split at the instant `body` returns.
    func best(_ body: () throws -> UInt64) throws -> (Double, Double) {
        var result = (Double.infinity, Double.infinity)
        for _ in 0..<repetitions {
            let start = DispatchTime.now().uptimeNanoseconds
            let split = try body()
            let end = DispatchTime.now().uptimeNanoseconds
            let first = Double(split - start) / 1e9, second = Double(end - split) / 1e9
            if first + second < result.0 + result.1 { result = (first, second) }
        }
        return result
    }

    enum BenchmarkFailure: Error {
        case noAnchor
        case tooFewSlots(Int)
    }
}
#endif
