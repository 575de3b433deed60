import GuardianTimeline

/// How published days compare with what people really did: time by truth and guess (the
/// confusion matrix), transitions found, slot counts, and slot time where there was no data.
public struct TimelineScore: Sendable, Hashable {
    /// Milliseconds spent in each truth category guessed as each category (`unknown` includes
    /// time without a slot).
    public var confusion: [TimelineCategory: [TimelineCategory: Int64]] = [:]
    /// Changes of category in the truth, and how many had a slot boundary within
    /// `transitionTolerance`, by the category changed to.
    public var transitionsInto: [TimelineCategory: Int] = [:]
    public var transitionsFoundInto: [TimelineCategory: Int] = [:]
    /// Of those, the changes the phone showed (a move or the charger within `transitionTolerance`),
    /// and how many of them had a slot boundary near them: the rest could only be guessed.
    public var shownTransitions = 0
    public var shownTransitionsFound = 0
    /// Published and truth slots, by category.
    public var slotsOf: [TimelineCategory: Int] = [:]
    public var truthSlotsOf: [TimelineCategory: Int] = [:]
    /// Milliseconds of published slots in stretches without data.
    public var slotTimeWithoutData: Int64 = 0

    public static let transitionTolerance: Int64 = 10 * 60_000

    public init() {}

    /// Scores `days` (one person's published days) against `truth` over the local days `[from, to)`.
    public init(days: [DayTimeline], truth: LabelledDays.PersonDays, from: Int64, to: Int64) {
        let slots = days.flatMap(\.slots).filter { $0.start >= from && $0.end <= to }.sorted { $0.start < $1.start }
        let noData = truth.noData
        func withData(_ range: Range<Int64>) -> [Range<Int64>] {
            noData.reduce([range]) { pieces, hole in
                pieces.flatMap { piece -> [Range<Int64>] in
                    guard piece.overlaps(hole) else { return [piece] }
                    let before = piece.lowerBound..<max(piece.lowerBound, hole.lowerBound)
                    let after = min(max(hole.upperBound, piece.lowerBound), piece.upperBound)..<piece.upperBound
                    return [before, after].filter { !$0.isEmpty }
                }
            }
        }

        for slot in truth.truth where slot.end > from && slot.start < to {
            for piece in withData(max(slot.start, from)..<min(slot.end, to)) {
                var covered: Int64 = 0
                for guess in slots where guess.end > piece.lowerBound && guess.start < piece.upperBound {
                    let overlap = min(guess.end, piece.upperBound) - max(guess.start, piece.lowerBound)
                    confusion[slot.category, default: [:]][guess.category, default: 0] += overlap
                    covered += overlap
                }
                confusion[slot.category, default: [:]][.unknown, default: 0] += (piece.upperBound - piece.lowerBound) - covered
            }
        }
        for slot in slots {
            for hole in noData where hole.overlaps(slot.start..<slot.end) {
                slotTimeWithoutData += min(hole.upperBound, slot.end) - max(hole.lowerBound, slot.start)
            }
        }

        // Boundaries the person would see: slot starts, except where a slot only continues past midnight.
        let dayStarts = Set(days.map(\.dayStart))
        var boundaries: [Int64] = []
        for (index, slot) in slots.enumerated() {
            let continued = index > 0 && dayStarts.contains(slot.start) && slots[index - 1].end == slot.start
                && slots[index - 1].category == slot.category
            guard !continued else { continue }
            boundaries.append(slot.start)
            slotsOf[slot.category, default: 0] += 1
        }
        let signs = truth.signs
        for next in truth.truth.dropFirst() where next.start > from && next.start < to {
            guard !noData.contains(where: { $0.contains(next.start) || $0.upperBound == next.start }) else { continue }
            transitionsInto[next.category, default: 0] += 1
            let found = boundaries.contains { abs($0 - next.start) <= Self.transitionTolerance }
            if found { transitionsFoundInto[next.category, default: 0] += 1 }
            if signs.near(next.start, within: Self.transitionTolerance) {
                shownTransitions += 1
                if found { shownTransitionsFound += 1 }
            }
        }
        // Truth slots are not cut at midnight (nor are the published ones counted above); a
        // stretch without data splits one.
        for slot in truth.truth where slot.end > from && slot.start < to {
            truthSlotsOf[slot.category, default: 0] += withData(max(slot.start, from)..<min(slot.end, to)).count
        }
    }

    public var transitions: Int { transitionsInto.values.reduce(0, +) }
    public var transitionsFound: Int { transitionsFoundInto.values.reduce(0, +) }
    public var slots: Int { slotsOf.values.reduce(0, +) }
    public var truthSlots: Int { truthSlotsOf.values.reduce(0, +) }

    /// The share of changes into `category` with a slot boundary near them (`nil` without any).
    public func transitionRecall(into category: TimelineCategory) -> Double? {
        let total = transitionsInto[category] ?? 0
        return total > 0 ? Double(transitionsFoundInto[category] ?? 0) / Double(total) : nil
    }

    /// The share of a truth category's time guessed `unknown` or without a slot.
    public func unknownShare(of category: TimelineCategory) -> Double? {
        let total = time(of: category)
        return total > 0 ? Double(confusion[category]?[.unknown] ?? 0) / Double(total) : nil
    }

    public mutating func add(_ other: TimelineScore) {
        for (truth, row) in other.confusion {
            for (guess, time) in row { confusion[truth, default: [:]][guess, default: 0] += time }
        }
        transitionsInto.merge(other.transitionsInto, uniquingKeysWith: +)
        transitionsFoundInto.merge(other.transitionsFoundInto, uniquingKeysWith: +)
        shownTransitions += other.shownTransitions
        shownTransitionsFound += other.shownTransitionsFound
        slotsOf.merge(other.slotsOf, uniquingKeysWith: +)
        truthSlotsOf.merge(other.truthSlotsOf, uniquingKeysWith: +)
        slotTimeWithoutData += other.slotTimeWithoutData
    }

    public func time(of truth: TimelineCategory) -> Int64 { confusion[truth]?.values.reduce(0, +) ?? 0 }

    public var totalTime: Int64 { confusion.values.reduce(0) { $0 + $1.values.reduce(0, +) } }

    /// The share of a truth category's time guessed right (`nil` without such time).
    public func accuracy(of truth: TimelineCategory) -> Double? {
        let total = time(of: truth)
        return total > 0 ? Double(confusion[truth]?[truth] ?? 0) / Double(total) : nil
    }

    /// The share of all time guessed right.
    public var accuracy: Double {
        let right = confusion.reduce(Int64(0)) { $0 + ($1.value[$1.key] ?? 0) }
        return totalTime > 0 ? Double(right) / Double(totalTime) : 0
    }

    public var transitionRecall: Double { transitions > 0 ? Double(transitionsFound) / Double(transitions) : 1 }

    /// Transition recall over the changes the phone showed, and over those it did not.
    public var shownTransitionRecall: Double { shownTransitions > 0 ? Double(shownTransitionsFound) / Double(shownTransitions) : 1 }
    public var unshownTransitionRecall: Double {
        let unshown = transitions - shownTransitions
        return unshown > 0 ? Double(transitionsFound - shownTransitionsFound) / Double(unshown) : 1
    }

    /// Published slots per truth slot (1 is the same count).
    public var slotRatio: Double { truthSlots > 0 ? Double(slots) / Double(truthSlots) : 0 }

    /// The share of time guessed `unknown` or without a slot.
    public var unknownShare: Double {
        let unknown = confusion.values.reduce(Int64(0)) { $0 + ($1[.unknown] ?? 0) }
        return totalTime > 0 ? Double(unknown) / Double(totalTime) : 0
    }
}
