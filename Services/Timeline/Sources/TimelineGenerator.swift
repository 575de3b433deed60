import Foundation

/// Turns motion and location events into time slots, whole or incrementally.
///
/// Incremental generation re-segments only the events from the state's anchor, a slot start
/// chosen some hours before the end. It keeps the slots before the anchor and replaces the rest,
/// and it is exactly a full rebuild: the anchor records the spans just before it at each pass,
/// and `update` proceeds only if `Segmenter.separates` proves that no pass joins the two sides
/// with the new events; otherwise (or if the passes were retuned) it returns `nil` and the
/// caller rebuilds.
public struct TimelineGenerator: Sendable {
    public var passes: [SegmentationPass]
    /// An anchor is chosen at least this long before the generation time (so later events
    /// rarely reach back across it), and with at least two slots after it.
    public var anchorMargin: Int64
    /// The device's local time, for where a long still evening gives way to the night
    /// (`NightSplit`); `nil` splits only where the phone shows it.
    public var timeZone: TimeZone?

    public init(passes: [SegmentationPass] = SegmentationPass.standard, anchorMargin: Int64? = nil, timeZone: TimeZone? = nil) {
        self.passes = passes
        self.anchorMargin = anchorMargin ?? 2 * (passes.map(\.threshold).max() ?? 0)
        self.timeZone = timeZone
    }

    /// Segments every event (`charges`: the charger plugged in and out, signs of activity during a
    /// stay). Slots of `previous` the user edited keep their category when a
    /// slot still starts at the same instant.
    public func rebuild(
        motion: [MotionEvent], locations: [LocationEvent], charges: [ChargeEvent] = [], until: Int64, previous: TimelineState? = nil
    ) -> TimelineUpdate {
        let fixes = locations.sorted { $0.timestamp < $1.timestamp }
        let events = AnnotatedEvent.annotate(motion: motion, locations: Self.placing(fixes, motion: motion), until: until)
        let segmentation = Segmenter(passes: passes).run(events)
        let slots = slots(segmentation.spans, events: events, fixes: fixes, signs: charges.changes, edits: previous?.slots ?? [])
        let anchor = chooseAnchor(segmentation, events: events, until: until, previous: nil)
        return TimelineUpdate(
            state: TimelineState(slots: slots, generatedUntil: until, anchor: anchor),
            changedFrom: min(slots.first?.start ?? until, previous?.slots.first?.start ?? until))
    }

    /// Generates on from `state`: `locations` must hold every location from the one before the last
    /// one at or before `state.resumeFrom`, and from twice `AnnotatedEvent.recentFixes` before it
    /// (every one if it is `nil`), and `motion` every motion event
    /// from the known one in effect at the earlier of that location and `state.resumeFrom`, old and new
    /// (`TimelineStore.events`);
    /// `charges` every charge event (they are few).
    /// Returns `nil` when the anchor no longer
    /// splits the timeline (events arrived late, before or just after it): rebuild then.
    public func update(
        _ state: TimelineState, motion: [MotionEvent], locations: [LocationEvent], charges: [ChargeEvent] = [], until: Int64
    ) -> TimelineUpdate? {
        guard let anchor = state.anchor else {
            return rebuild(motion: motion, locations: locations, charges: charges, until: until, previous: state)
        }
        guard anchor.passes == passes else { return nil }
        let fixes = locations.sorted { $0.timestamp < $1.timestamp }
        let events = AnnotatedEvent.annotate(
            motion: motion.filter { $0.timestamp >= anchor.start }, locations: Self.placing(fixes, motion: motion), until: until)
        guard let first = events.first, first.start == anchor.start, first.activity == anchor.activity else { return nil }
        let segmenter = Segmenter(passes: passes)
        let segmentation = segmenter.run(events)
        guard segmenter.separates(before: anchor.before, tail: segmentation) else { return nil }

        let kept = state.slots.prefix { $0.start < anchor.start }
        let tail = slots(segmentation.spans, events: events, fixes: fixes, signs: charges.changes, edits: state.slots[kept.count...])
        let next = chooseAnchor(segmentation, events: events, until: until, previous: anchor)
        return TimelineUpdate(
            state: TimelineState(slots: Array(kept) + tail, generatedUntil: until, anchor: next),
            changedFrom: anchor.start)
    }

    /// The fixes that place events: `fixes` (in order) without those astray in stillness
    /// (`AnnotatedEvent.withoutStrays`; `unknown` motion says nothing).
    static func placing(_ fixes: [LocationEvent], motion: [MotionEvent]) -> [LocationEvent] {
        AnnotatedEvent.withoutStrays(fixes, motion: motion.filter { $0.activity != .unknown }.sorted { $0.timestamp < $1.timestamp })
    }

    /// The latest slot start at least `anchorMargin` before `until` with two slots after it, not a
    /// stay just arrived at when a meal may come first, nor one begun by movement in the morning
    /// (breakfast may follow: their cuts depend on the span before), nor one going on a stillness
    /// (it is split with the stay before it).
    func chooseAnchor(_ segmentation: Segmentation, events: [AnnotatedEvent], until: Int64, previous: SegmentationAnchor?) -> SegmentationAnchor? {
        let spans = segmentation.spans
        guard spans.count >= 3 else { return previous }
        let days = timeZone.map(LocalDays.init)
        let meals = MealEnd(days: days), breakfast = Breakfast(days: days)
        for index in stride(from: spans.count - 3, through: 0, by: -1) {
            let span = spans[index]
            guard span.start <= until - anchorMargin, !(Self.arrives(spans, at: index) && meals.arrivesAtMealTime(span.start)),
                  !(span.activity == .stationary && Self.followsMoving(spans, events: events, at: index) && (breakfast.isMorning(span.start) || meals.begunAtMealTime(span.start))),
                  !Self.continuesStillness(spans, events: events, at: index) else { continue }
            if span.first == 0 { return previous }
            let before = passes.indices.map { segmentation.span(endingBefore: span.first, stage: $0)?.shape }
            return SegmentationAnchor(start: span.start, activity: events[span.first].activity, before: before, passes: passes)
        }
        return previous
    }

    /// One slot per span, except that a long stay is split where its night begins and ends
    /// (`NightSplit`), on weekdays where working hours begin and end (`WorkingHours`), and
    /// around a meal (`MealEnd`, before getting up or going out, after coming home at dinner time;
    /// `UsualMeal` where nothing shows one). A stay the data breaks into several spans with no
    /// movement between them (a sensor silent for half an hour) is split as one stillness.
    /// `signs` are the instants the charger was plugged in or out, in order; `fixes` the locations,
    /// in order (where walking about one place begins and ends).
    func slots<Edits: Collection<TimeSlot>>(_ spans: [Span], events: [AnnotatedEvent], fixes: [LocationEvent] = [], signs: [Int64] = [], edits: Edits) -> [TimeSlot] {
        var edited: [Int64: TimeSlot] = [:]
        for slot in edits where slot.edited { edited[slot.start] = slot }
        let days = timeZone.map(LocalDays.init)
        let split = NightSplit(days: days), hours = WorkingHours(days: days), meals = MealEnd(days: days), usualMeals = UsualMeal(days: days)
        let breakfast = Breakfast(days: days)
        var slots: [TimeSlot] = []
        slots.reserveCapacity(spans.count)
        var index = 0
        while index < spans.count {
            let span = spans[index]
            guard span.activity == .stationary else {
                // A walk straight on from walking about one place (or a short stop after it) may still be about it.
                let about = index > 0 && spans[index - 1].end == span.start ? Self.walkingAboutBefore(span.start, slots) : nil
                var walk = Self.walkingAbout(
                    Self.slot(span, events: events), span: span, events: events, fixes: fixes, goingOnAbout: about,
                    stopAt: Self.shortStop(spans, events: events, at: index + 1))
                // The charger plugged in on the way to bed (or out on getting up): the walk is the night's end.
                if !walk.isEmpty, Self.signDuring(span.start..<span.end, signs) { walk[walk.count - 1].endsAtCharger = true }
                slots += walk
                index += 1
                continue
            }
            var last = index
            while last + 1 < spans.count, Self.continuesStillness(spans, events: events, at: last + 1) { last += 1 }
            let stillness = Span(first: span.first, last: spans[last].last, start: span.start, end: spans[last].end, activity: .stationary)
            let ending = Self.slot(spans[last], events: events)
            var cuts = split.cuts(events[stillness.first...stillness.last], start: stillness.start, end: stillness.end, signs: signs, open: last == spans.count - 1)
            let bounds = ([stillness.start] + cuts.map(\.at) + [stillness.end]).sorted()
            // The usual working hours cut first (the meal before getting up is looked for after
            // them); the quarter hours a person's own working day may start at, last.
            var ownHours: [Int64] = []
            for (from, to) in zip(bounds, bounds.dropFirst()) {
                cuts += hours.cuts(start: from, end: to, at: [WorkingHours.start, WorkingHours.end]).map { ($0, nil) }
                ownHours += hours.cuts(start: from, end: to)
            }
            let leaves = last + 1 < spans.count && spans[last + 1].activity != .stationary && spans[last + 1].start == stillness.end
            var beforeMeal: Int64?
            if ending.endsMoving == true || leaves, let cutOff = cuts.map(\.at).max() ?? Optional(stillness.start),
               let meal = meals.cut(start: cutOff, end: stillness.end, leaving: ending.endsMoving != true) {
                cuts.append((meal, nil))
                beforeMeal = meal
            }
            let arrives = Self.arrives(spans, at: index)
            if !arrives, Self.followsMoving(spans, events: events, at: index), let meal = meals.begun(start: stillness.start, end: stillness.end),
               !cuts.contains(where: { $0.at == meal }) {
                cuts.append((meal, nil))
            }
            let arrival = arrives ? meals.arrival(start: stillness.start, end: stillness.end) : nil
            if let arrival, !cuts.contains(where: { $0.at == arrival }) { cuts.append((arrival, nil)) }
            // Getting up (which may end a meal) shows something of the meal time it falls in; so does
            // the meal on coming home. No meal the phone shows nothing of overlaps the one before leaving.
            let shown = cuts.filter { $0.endsMoving == true }.map(\.at) + (ending.endsMoving == true ? [stillness.end] : []) + (arrival.map { [$0] } ?? [])
            let usual = usualMeals.cuts(start: stillness.start, end: stillness.end, signs: shown, apart: beforeMeal.map { $0..<stillness.end })
            cuts += usual.filter { at in !cuts.contains { $0.at == at } }.map { ($0, nil) }
            // Breakfast after each sign of getting up in the morning, unless something cuts the piece before its end.
            let begun = (Self.followsMoving(spans, events: events, at: index) ? [stillness.start] : [])
                + cuts.filter { $0.endsMoving == true }.map(\.at)
            let pieceBounds = (cuts.map(\.at) + [stillness.end]).sorted()
            for from in begun {
                let to = pieceBounds.first { $0 > from } ?? stillness.end
                if let meal = breakfast.cut(start: from, end: to) { cuts.append((meal, nil)) }
            }
            cuts += ownHours.filter { at in !cuts.contains { $0.at == at } }.map { ($0, nil) }
            cuts.sort { $0.at < $1.at }
            for member in index...last {
                var slot = member == last ? ending : Self.slot(spans[member], events: events)
                // Cuts a moment from where the data already breaks the stay would leave slivers.
                let inside = spans[member].start + NightSplit.signNear..<spans[member].end - NightSplit.signNear
                for cut in cuts where inside.contains(cut.at) {
                    var piece = slot
                    piece.endsMoving = cut.endsMoving
                    if cut.endsMoving == true, Self.nearSign(cut.at, signs) { piece.endsAtCharger = true }
                    slots.append(piece)
                    slot.start = cut.at
                }
                // Ended by movement, inside it or a walk on (the charger unplugged as the person gets up).
                if slot.endsMoving == true || member == last && leaves, Self.nearSign(spans[member].end, signs) { slot.endsAtCharger = true }
                slots.append(slot)
            }
            index = last + 1
        }
        return slots.edited(by: edited)
    }

    /// Whether the span at `index` comes right after movement (a span of it, or one ending with it).
    static func followsMoving(_ spans: [Span], events: [AnnotatedEvent], at index: Int) -> Bool {
        index > 0 && spans[index - 1].end == spans[index].start && ![.stationary, .unknown].contains(events[spans[index - 1].last].activity)
    }

    /// Whether the stay at `index` goes on the stillness of the stay right before it: the data
    /// broke it (a sensor silent a while), no movement did.
    static func continuesStillness(_ spans: [Span], events: [AnnotatedEvent], at index: Int) -> Bool {
        index > 0 && spans[index].activity == .stationary && spans[index - 1].activity == .stationary
            && spans[index - 1].end == spans[index].start && events[spans[index - 1].last].activity == .stationary
    }

    /// Whether the span at `index` is a stay arrived at from a trip out (moving `SlotContext.tripOut` or longer).
    static func arrives(_ spans: [Span], at index: Int) -> Bool {
        index > 0 && spans[index].activity == .stationary && spans[index - 1].activity != .stationary
            && spans[index - 1].end == spans[index].start && spans[index - 1].end - spans[index - 1].start >= SlotContext.tripOut
    }

    /// Whether the charger was plugged in or out within `range` (`signs` in order).
    static func signDuring(_ range: Range<Int64>, _ signs: [Int64]) -> Bool {
        let next = signs.partitioningIndex { $0 >= range.lowerBound }
        return next < signs.count && signs[next] < range.upperBound
    }

    /// The charger plugged in or out within `NightSplit.signNear` of `instant` (`signs` in order).
    static func nearSign(_ instant: Int64, _ signs: [Int64]) -> Bool {
        let next = signs.partitioningIndex { $0 >= instant - NightSplit.signNear }
        return next < signs.count && signs[next] <= instant + NightSplit.signNear
    }

    /// The place of the span at `index` when it is a short stop (under `SlotContext.tripOut`) right after
    /// the span before it, and the stillness ends with it.
    static func shortStop(_ spans: [Span], events: [AnnotatedEvent], at index: Int) -> GeoPoint? {
        guard index > 0, index < spans.count, spans[index].activity == .stationary, spans[index - 1].end == spans[index].start,
              spans[index].end - spans[index].start < SlotContext.tripOut,
              !(index + 1 < spans.count && continuesStillness(spans, events: events, at: index + 1)) else { return nil }
        return slot(spans[index], events: events).location
    }

    /// A walk's slot, split around walking about one place (`WalkingAbout`, with `fixes` in order),
    /// or, going on from walking about `goingOnAbout`, at the end of walking about it, or, ending at a
    /// short stop at `stopAt` (the till), where walking about its place begins; other slots whole.
    static func walkingAbout(
        _ slot: TimeSlot, span: Span, events: [AnnotatedEvent], fixes: [LocationEvent] = [], goingOnAbout: GeoPoint? = nil, stopAt: GeoPoint? = nil
    ) -> [TimeSlot] {
        guard slot.activity == .walking,
              let about = WalkingAbout.stretch(events[span.first...span.last], fixes: fixes, start: span.start, end: span.end)
                ?? goingOnAbout.flatMap({ place in stopAt.flatMap { WalkingAbout.between(stopsAt: place, and: $0, fixes: fixes, start: span.start, end: span.end) } })
                ?? goingOnAbout.flatMap({ WalkingAbout.goingOn(about: $0, fixes: fixes, start: span.start, end: span.end) })
                ?? stopAt.flatMap({ WalkingAbout.endingAt($0, fixes: fixes, start: span.start, end: span.end) })
        else { return [slot] }
        var middle = slot
        (middle.start, middle.location, middle.aboutOnePlace) = (about.range.lowerBound, about.place ?? slot.location, true)
        if WalkingAbout.ran(events[span.first...span.last], during: about.range) { middle.ranAbout = true }
        var after = slot
        after.start = about.range.upperBound
        return (about.range.lowerBound > span.start ? [slot] : []) + [middle] + (about.range.upperBound < span.end ? [after] : [])
    }

    /// The place of the walking about one place that the last of `slots` is, or the one before it
    /// when the last is a stop under `SlotContext.tripOut` (at the till), up to `start`.
    static func walkingAboutBefore(_ start: Int64, _ slots: [TimeSlot]) -> GeoPoint? {
        guard let last = slots.last else { return nil }
        if last.aboutOnePlace == true { return last.location }
        guard last.activity == .stationary, start - last.start < SlotContext.tripOut, slots.count > 1,
              slots[slots.count - 2].aboutOnePlace == true else { return nil }
        return slots[slots.count - 2].location
    }

    /// The slot of a span: its top activity, the place where it spent most time.
    static func slot(_ span: Span, events: [AnnotatedEvent]) -> TimeSlot {
        var activityTime = [Int64](repeating: 0, count: MotionActivity.allCases.count)
        var places: [(GeoPoint, Int64)] = []
        for event in events[span.first...span.last] {
            activityTime[event.activity.order] += event.duration
            guard let location = event.location else { continue }
            if let index = places.firstIndex(where: { $0.0 == location }) {
                places[index].1 += event.duration
            } else {
                places.append((location, event.duration))
            }
        }
        let top = activityTime.indices.max { activityTime[$0] < activityTime[$1] || (activityTime[$0] == activityTime[$1] && $0 > $1) }!
        let place = places.indices.max { places[$0].1 < places[$1].1 || (places[$0].1 == places[$1].1 && $0 > $1) }
        var slot = TimeSlot(start: span.start, activity: MotionActivity.allCases[top], location: place.map { places[$0].0 })
        if slot.activity == .stationary, events[span.last].activity != .stationary { slot.endsMoving = true }
        return slot
    }
}

extension Array where Element == TimeSlot {
    /// The slots with the category the user set on a slot starting at the same instant.
    func edited(by edits: [Int64: TimeSlot]) -> [TimeSlot] {
        guard !edits.isEmpty else { return self }
        return map { slot in
            guard let user = edits[slot.start] else { return slot }
            var slot = slot
            slot.category = user.category
            slot.confidence = user.confidence
            slot.edited = true
            return slot
        }
    }
}

/// The result of a generation.
public struct TimelineUpdate: Sendable, Hashable {
    public var state: TimelineState
    /// Slots from here on are new or changed: label them, and republish the local days from
    /// the one holding this instant to the one holding `state.generatedUntil`.
    public var changedFrom: Int64
}
