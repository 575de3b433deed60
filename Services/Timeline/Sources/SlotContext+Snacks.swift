/// A meal between lunch and dinner that the phone shows most days at about the same time (a
/// child's snack after school, coffee and cake): a stay at home of a meal's length, begun and
/// ended by getting up, in the afternoon. Once is no habit, so it is taken only when such stays
/// begin within `snackSpread` of their usual start on `fewestSnacks` days or more, and on at
/// least half of the days the person is home then.
extension SlotContext {
    static let snackTime = 14.0 * 60 + 30...17.0 * 60 + 30
    static let fewestSnacks = 3
    static let snackSpread = 30.0

    static func markSnacks(_ contexts: inout [SlotContext], _ spans: [SlotSpan], lodgingVisits: [ClosedRange<Int>], days: LocalDays) {
        let shown = lodgingVisits.flatMap { visit in visit.filter { mayBeSnack($0, in: visit, contexts, spans) } }
        guard !shown.isEmpty else { return }
        // Local minutes after midnight each stay begins, and how far that is from the usual snack.
        let starts = contexts.map { $0.startMinute.truncatingRemainder(dividingBy: 1440) }
        let usual = SleepHabits.quantile(shown.map { starts[$0] }, 0.5)
        let offUsual = { (index: Int) in abs(starts[index] - usual) }
        let regular = Dictionary(grouping: shown.filter { offUsual($0) <= snackSpread }, by: { days.name(of: spans[$0].start) })
        let daysHome = Set(lodgingVisits.flatMap { visit in
            visit.filter { snackTime.contains(contexts[$0].localMiddle) }.map { days.name(of: spans[$0].start) }
        })
        guard regular.count >= fewestSnacks, 2 * regular.count >= daysHome.count else { return }
        for sameDay in regular.values {
            contexts[sameDay.min { offUsual($0) < offUsual($1) }!].isMealTime = true
        }
    }

    /// Whether the stay at `index` of a visit is like a snack: shaped like a meal in the afternoon
    /// (`mealShaped`), begun by getting up (not by coming home, nor from a rest) and ended by it, awake.
    static func mayBeSnack(_ index: Int, in visit: ClosedRange<Int>, _ contexts: [SlotContext], _ spans: [SlotSpan]) -> Bool {
        let context = contexts[index]
        guard index > visit.lowerBound, index < contexts.count - 1, spans[index - 1].slot.endsMoving == true,
              !contexts[index - 1].isSleep, !context.isSleep, !contexts[index + 1].isSleep, !context.isMealTime else { return false }
        return mealShaped(index, in: snackTime, contexts)
    }
}
