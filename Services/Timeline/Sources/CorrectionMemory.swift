import Foundation

/// The slots a person corrected (or confirmed), applied to the same kind of slot on other
/// days: the same motion, at the same place for a stay, at the same time of day (the
/// corrected slot's span, with `margin` either side) and on the same kind of day (weekday or
/// weekend), and guessed as the corrected slot had been (when known). Several matching
/// corrections vote.
struct CorrectionMemory: Sendable, Hashable {
    var corrections: [LabelledSlot]

    static let margin = 60.0

    /// The corrected category for a slot and the share of matching corrections that agree.
    func category(for span: SlotSpan, guess: TimelineCategory?, timeZone: TimeZone) -> (category: TimelineCategory, share: Double)? {
        guard !corrections.isEmpty else { return nil }
        let slot = SlotObservation(start: span.start, duration: span.duration, activity: span.slot.activity, timeZone: timeZone)
        var votes: [TimelineCategory: Int] = [:]
        for correction in corrections where correction.activity == span.slot.activity && (correction.guessed == nil || correction.guessed == guess) {
            let corrected = SlotObservation(start: correction.start, duration: correction.duration, activity: correction.activity, timeZone: timeZone)
            guard (corrected.weekday < 5) == (slot.weekday < 5) else { continue }
            if span.slot.activity == .stationary {
                switch (correction.location, span.slot.location) {
                case (nil, nil): break
                case let (here?, there?) where here.distance(to: there) <= DevicePlaces.radius: break
                default: continue
                }
            }
            let middle = slot.minuteOfDay + slot.minutes / 2
            let from = corrected.minuteOfDay - Self.margin, to = corrected.minuteOfDay + corrected.minutes + Self.margin
            guard [middle - 1440, middle, middle + 1440].contains(where: { (from...to).contains($0) }) else { continue }
            votes[correction.category, default: 0] += 1
        }
        let total = votes.values.reduce(0, +)
        guard let best = votes.max(by: { ($0.value, $1.key.rawValue) < ($1.value, $0.key.rawValue) }) else { return nil }
        return (best.key, Double(best.value) / Double(total))
    }
}
