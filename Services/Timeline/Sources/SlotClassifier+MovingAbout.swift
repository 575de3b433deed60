/// A short walk from a place back to the same place went nowhere: moving about the place (a
/// ward round, the walk to the kitchen, across the office), not getting somewhere. It is what
/// the stay it leads into is, so the slot a person draws goes on through it.
extension SlotClassifier {
    /// A walk shorter than this (ms) between two stays at one place is moving about it; at work,
    /// one shorter than `SlotContext.roundOfTheWard` (a ward round, a walk round the warehouse).
    static let movingAbout: Int64 = SlotContext.tripOut

    /// The indices of the walks in `spans` that move about one place, each with the stay it leads into:
    /// one walk between two stays there, or several in a row (a walk the data parts) together that short.
    static func movingAbout(_ spans: [SlotSpan], _ contexts: [SlotContext]) -> [(walk: Int, stay: Int)] {
        func walk(_ index: Int) -> Bool { spans[index].slot.activity == .walking && !contexts[index].isAboutOnePlace }
        var found: [(walk: Int, stay: Int)] = []
        var index = 1
        while index < spans.count - 1 {
            guard walk(index), contexts[index - 1].isStay, !spans[index - 1].slot.isGap else {
                index += 1
                continue
            }
            var last = index
            while last + 1 < spans.count, walk(last + 1) { last += 1 }
            let after = last + 1
            if after < spans.count, !spans[after].slot.isGap, contexts[after].isStay,
               let place = contexts[index - 1].place, contexts[after].place == place,
               spans[last].end - spans[index].start < (contexts[index - 1].kind == .work ? SlotContext.roundOfTheWard : movingAbout) {
                found += (index...last).map { ($0, after) }
            }
            index = last + 1
        }
        return found
    }
}
