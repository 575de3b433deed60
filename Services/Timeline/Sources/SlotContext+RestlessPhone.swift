/// A phone picked up and carried about the flat every few minutes (a restless phone) shows walks
/// that have nothing to do with what the person is doing: the stays between them are no meals. Its
/// meals at home are put at the person's usual time instead, as for a phone that shows nothing.
/// A phone that moves only as the person changes what they do (to the table, back to the sofa)
/// shows few stays of a few minutes between two walks, and keeps its shown meals.
extension SlotContext {
    /// A stay at home between two walks shorter than this (minutes) is a moment's pause in moving about.
    static let restlessPause = 10.0
    /// A phone is restless when at least this many of its stays at home between two walks, and at
    /// least `restlessShare` of them, are such pauses (one is chance).
    static let fewestRestlessPauses = 2
    static let restlessShare = 0.05
    /// A restless phone's meal the clock puts at its usual time starts at the piece nearest that time,
    /// up to this many minutes off it (the walks part the evening into pieces, not at the hour).
    static let restlessReach = 30.0
    /// Such a meal goes on through the pieces that begin within `restlessMealPieces` minutes of its
    /// start, but not through one that would make it longer than `longestRestlessMeal`.
    static let restlessMealPieces = 30.0
    static let longestRestlessMeal = 50.0

    /// Whether the phone is restless at home (`restlessPause`), by its stays at home, awake, between
    /// two walks about the flat: begun by getting up from another stay there, ended by getting up
    /// (not by going out).
    static func restlessAtHome(_ contexts: [SlotContext], _ spans: [SlotSpan]) -> Bool {
        func home(_ index: Int) -> Bool { contexts[index].isStay && contexts[index].kind == .home && !spans[index].slot.isGap }
        // Ended by getting up to another stay at home: a walk the stay ends with, or one of its own.
        func walksAbout(after index: Int) -> Bool {
            if home(index + 1) { return spans[index].slot.endsMoving == true }
            guard let moved = movement(from: index, step: 1, contexts, spans) else { return false }
            return !moved.trip && contexts.indices.contains(moved.reaches) && home(moved.reaches)
        }
        var pauses = 0, stays = 0
        for index in contexts.indices.dropFirst().dropLast() where home(index - 1) && home(index) && !contexts[index].isSleep
            && spans[index - 1].slot.endsMoving == true && walksAbout(after: index) {
            stays += 1
            if contexts[index].minutes < restlessPause { pauses += 1 }
        }
        return pauses >= fewestRestlessPauses && Double(pauses) >= restlessShare * Double(stays)
    }

    /// Marks a restless phone's `meal` (`markMeal`) in `visit` on the days `onDay` allows with none yet
    /// (`marked`): at the piece nearest `usual` (`restlessReach`), not one begun by coming home, nor
    /// before going out again; else, out at that time and home from a trip a meal's length before
    /// the meal's window ends (back from the gym at 20:00), on coming home, from the first piece short
    /// enough to be one. Neither when the person goes to bed within its pieces.
    static func markRestlessMeal(
        _ meal: Meal, in visit: ClosedRange<Int>, at usual: Double, skipping marked: Set<String>, onDay: [Bool], _ contexts: inout [SlotContext],
        _ spans: [SlotSpan], days: LocalDays, starts: [Double]
    ) {
        let (first, last) = (visit.lowerBound, visit.upperBound)
        func day(_ index: Int) -> String { days.name(of: spans[index].start) }
        func mayBegin(_ index: Int) -> Bool {
            contexts[index].isStay && !contexts[index].isSleep && contexts[index].minutes <= longestRestlessMeal
                && !contexts[index..<min(last + 1, index + 3)].contains(where: \.isSleep)
        }
        func mark(from index: Int, _ contexts: inout [SlotContext]) {
            for piece in restlessMeal(from: index, through: last, contexts) { contexts[piece].isMealTime = true }
        }
        let near = visit.filter {
            onDay[$0] && $0 != first && mayBegin($0) && abs(starts[$0] - usual) <= restlessReach && !marked.contains(day($0))
                && !beforeGoingOutAgain($0, meal, contexts, spans)
        }
        for sameDay in Dictionary(grouping: near, by: day).values {
            mark(from: sameDay.min { abs(starts[$0] - usual) < abs(starts[$1] - usual) }!, &contexts)
        }
        guard first > 0, onDay[first], !marked.contains(day(first)), !near.contains(where: { day($0) == day(first) }),
              movement(from: first, step: -1, contexts, spans)?.trip == true,
              (usual + restlessReach...meal.window.upperBound - MealEnd.mealMinutes).contains(starts[first]) else { return }
        let arrival = contexts[first].startMinute
        if let from = visit.first(where: { mayBegin($0) && contexts[$0].startMinute - arrival <= restlessMealPieces && day($0) == day(first) }) {
            mark(from: from, &contexts)
        }
    }

    /// The pieces of a restless phone's meal (`restlessAtHome`) from `index` on, up to `last`, awake
    /// (`restlessMealPieces`, `longestRestlessMeal`).
    static func restlessMeal(from index: Int, through last: Int, _ contexts: [SlotContext]) -> Range<Int> {
        var piece = index
        while piece <= last, !contexts[piece].isSleep, contexts[piece].startMinute - contexts[index].startMinute < restlessMealPieces,
              piece == index || contexts[piece].startMinute + contexts[piece].minutes - contexts[index].startMinute <= longestRestlessMeal {
            piece += 1
        }
        return index..<piece
    }
}
