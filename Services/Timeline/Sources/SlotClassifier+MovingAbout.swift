/// A short walk from a place back to the same place went nowhere: moving about the place (a
/// ward round, the walk to the kitchen, across the office), not getting somewhere. It is what
/// the stay it leads into is, so the slot a person draws goes on through it.
extension SlotClassifier {
    /// A walk shorter than this (ms) between two stays at one place is moving about it; at work,
    /// one shorter than `SlotContext.roundOfTheWard` (a ward round, a walk round the warehouse).
    static let movingAbout: Int64 = SlotContext.tripOut

    /// The indices of the walks in `spans` that move about one place, each with the stay it leads into.
    static func movingAbout(_ spans: [SlotSpan], _ contexts: [SlotContext]) -> [(walk: Int, stay: Int)] {
        spans.indices.dropFirst().dropLast().compactMap { index in
            let walk = spans[index], before = spans[index - 1], after = spans[index + 1]
            guard walk.slot.activity == .walking, !contexts[index].isAboutOnePlace,
                  !before.slot.isGap, !after.slot.isGap, contexts[index - 1].isStay, contexts[index + 1].isStay,
                  let place = contexts[index - 1].place, contexts[index + 1].place == place,
                  walk.duration < (contexts[index - 1].kind == .work ? SlotContext.roundOfTheWard : movingAbout) else { return nil }
            return (index, index + 1)
        }
    }
}
