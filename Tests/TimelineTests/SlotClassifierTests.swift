import Foundation
@testable import GuardianTimeline
import GuardianTimelineEvaluation
import Testing

@Suite("guessing categories")
struct SlotClassifierTests {
    /// A month of the synthetic person, segmented, with what they really did in each slot.
    struct LabelledMonth {
        let month = SyntheticMonth()
        let spans: [SlotSpan]
        let labels: [LabelledSlot]

        init() {
            spans = TimelineGenerator().rebuild(motion: month.motion, locations: month.locations, until: month.end).state.spans
            labels = month.labelled(spans)
        }
    }

    static let data = LabelledMonth()
    var data: LabelledMonth { Self.data }

    func trained(days: Int = 21, extra: [LabelledSlot] = []) throws -> SlotClassifier {
        let end = data.month.dayStarts[days]
        return try SlotClassifier.train(
            examples: data.labels.filter { $0.start < end } + extra, places: data.spans.filter { $0.start < end },
            timeZone: data.month.timeZone)
    }

    @Test("trained on three weeks of labelled days, it labels the held-out days at 85% or better")
    func heldOutAccuracy() throws {
        let classifier = try trained()
        let split = data.month.dayStarts[21]
        var right = 0, total = 0, unknown = 0
        var rightTime: Int64 = 0, totalTime: Int64 = 0
        for (span, truth) in zip(data.spans, data.labels) where span.start >= split {
            let guess = classifier.guess(span, timeZone: data.month.timeZone)
            total += 1
            totalTime += span.duration
            if guess.category == .unknown { unknown += 1 }
            if guess.category == truth.category {
                right += 1
                rightTime += span.duration
            }
        }
        let accuracy = Double(right) / Double(total)
        print(String(format: "held-out accuracy: %.1f%% of %d slots (%.1f%% of the time), %d unknown; trained on %d examples",
                     accuracy * 100, total, Double(rightTime) / Double(totalTime) * 100, unknown, classifier.exampleCount))
        #expect(total > 100)
        #expect(accuracy >= 0.85)
    }

    @Test("a correction changes the next guess")
    func correction() throws {
        // The person starts climbing on Wednesday evenings at a gym 3 km north of home.
        let gym = GeoPoint(lat: 52.5480, lon: 13.4100)
        let zone = data.month.timeZone
        func wednesday(_ day: Int, _ hour: Int, _ minutes: Int) -> Int64 { data.month.dayStarts[day] + Int64(hour * 60 + minutes) * minute }
        let before = try trained()
        let first = before.guess(start: wednesday(16, 18, 40), duration: 95 * minute, activity: .stationary, location: gym, timeZone: zone)
        #expect(first.category != .exercise)

        let corrected = LabelledSlot(start: wednesday(16, 18, 40), duration: 95 * minute, activity: .stationary, location: gym, category: .exercise)
        let after = try trained(extra: [corrected])
        let next = after.guess(start: wednesday(23, 18, 55), duration: 80 * minute, activity: .stationary, location: gym, timeZone: zone)
        print("climbing: \(first.category) (\(first.best) \(Int(first.confidence * 100))%) before the correction, \(next.category) (\(Int(next.confidence * 100))%) after")
        #expect(next.category == .exercise)
    }

    @Test("training is deterministic and the model survives serialization")
    func persistence() throws {
        let one = try trained(days: 14), two = try trained(days: 14)
        #expect(try one.serialized() == two.serialized())
        let restored = try SlotClassifier(serialized: one.serialized())
        #expect(restored.frame == one.frame)
        for span in data.spans.suffix(40) {
            #expect(restored.guess(span, timeZone: data.month.timeZone) == one.guess(span, timeZone: data.month.timeZone))
        }
        #expect(throws: (any Error).self) { try SlotClassifier(serialized: Data("{}".utf8)) }
    }

    @Test("with the standard day alone: nights are sleep, drives are commutes, below 50% is unknown")
    func standardDayOnly() throws {
        let classifier = try SlotClassifier.train(examples: [], timeZone: data.month.timeZone)
        let zone = data.month.timeZone
        let monday = data.month.dayStarts[0]
        let night = classifier.guess(start: monday - 60 * minute, duration: 8 * 60 * minute, activity: .stationary, location: nil, timeZone: zone)
        #expect(night.category == .sleep)
        let drive = classifier.guess(start: monday + 8 * 60 * minute, duration: 25 * minute, activity: .automotive, location: nil, timeZone: zone)
        #expect(drive.category == .commute)
        let labelled = classifier.label(TimelineState(slots: data.spans.prefix(200).map(\.slot), generatedUntil: data.spans[199].end), timeZone: zone)
        for slot in labelled.slots {
            #expect((slot.category == .unknown) == (slot.confidence < SlotClassifier.minimumConfidence))
        }
        print("standard day alone: \(labelled.slots.count { $0.category == .unknown }) of 200 slots unknown")
    }

    @Test("labelling leaves edited slots and slots before `from` alone")
    func labelling() throws {
        let classifier = try trained(days: 7)
        var state = TimelineState(slots: data.spans.prefix(30).map(\.slot), generatedUntil: data.spans[29].end)
        state.slots[20].category = .family
        state.slots[20].edited = true
        let labelled = classifier.label(state, from: state.slots[10].start, timeZone: data.month.timeZone)
        #expect(labelled.slots[..<10] == state.slots[..<10])
        #expect(labelled.slots[20] == state.slots[20])
        #expect(labelled.slots[10...].filter { !$0.edited }.allSatisfy { $0.confidence > 0 })
    }
}
