/// A working day: the stays at work from the first to the last, with the walks about the place
/// (shorter than `tripOut`) and the stays elsewhere between them (a café, another building, up
/// to `longestAwayFromWork` each). A walk to the printer parts no day.
extension SlotContext {
    /// Each working day in `contexts`: its first and last stay at work.
    static func workingDays(_ contexts: [SlotContext], _ spans: [SlotSpan]) -> [ClosedRange<Int>] {
        func atWork(_ index: Int) -> Bool { contexts[index].isStay && contexts[index].kind == .work && !spans[index].slot.isGap }
        func between(_ index: Int) -> Bool {
            let context = contexts[index]
            guard !spans[index].slot.isGap else { return false }
            return context.isStay ? [.other, .unknown].contains(context.kind) && context.minutes <= longestAwayFromWork : spans[index].duration < tripOut
        }
        return runs(below: contexts.count, where: { atWork($0) || between($0) }).compactMap { run in
            guard let first = run.first(where: atWork), let last = run.last(where: atWork) else { return nil }
            return first...last
        }
    }

    /// Whether a stay elsewhere of `minutes` begun at `start` (local minutes) between stays at work
    /// is a lunch out: a meal's length (20 to 55 minutes) begun in `lunchOutStarts`.
    static func isLunchOut(minutes: Double, start: Double) -> Bool {
        (20...55).contains(minutes) && lunchOutStarts.contains(start.truncatingRemainder(dividingBy: 1440))
    }
}
