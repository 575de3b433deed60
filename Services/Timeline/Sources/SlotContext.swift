import Foundation

/// A slot among its neighbours: what the context guess looks at besides the slot itself.
struct SlotContext: Sendable, Hashable {
    var activity: MotionActivity
    var minutes: Double
    /// Local start, minutes after midnight, and its weekday (0 = Monday).
    var startMinute: Double
    var weekday: Int
    /// The place of a stay (`unknown` for movement).
    var kind: DevicePlaces.Kind
    var place: Int?
    /// The neighbouring slots (nil at either end or next to a gap).
    var previous: Neighbour?
    var next: Neighbour?
    /// Where the stays before and after this one are (skipping movement), for trips.
    var placeBefore: Int?
    var placeAfter: Int?
    /// For a stay at work: the one short stay halfway through a stretch at work (a meal break).
    var isBreak = false
    /// For a stay: the minutes of the whole visit (the run of stays at its place it belongs to),
    /// and its local start in minutes after midnight.
    var visitMinutes = 0.0
    var visitStart = 0.0
    /// For a stay: the stillness it belongs to (stays at its place not parted by movement): its
    /// first slot (-1 for movement, which belongs to no stillness), its local start in minutes
    /// after midnight, and its minutes.
    var stillFirst = -1
    var stillStart = 0.0
    var stillMinutes = 0.0
    /// For a stay at home: the one stay of its visit most likely to be a meal at a meal time.
    var isMealTime = false
    /// For a stay at home: part of a rest (a long stillness, and the pieces of a night broken by a
    /// walk); elsewhere (a hotel, a friend's) a long stillness through the small hours.
    var isSleep = false
    /// For a stay: part of a rest through the small hours (a night's).
    var isNightRest = false
    /// For a stay at home: a quarter hour of a night's stillness before the person's usual
    /// bedtime or after their usual time of getting up (`markSleepHabits`).
    var isUp = false
    /// For a stay: how many stillnesses its visit is broken into, and the longest one's minutes
    /// (a workout: short stays between walks to the next machine).
    var visitPieces = 0
    var longestPiece = 0.0
    /// For a stay elsewhere: waiting between two legs of a journey (an airport, a station), driven
    /// to and driven on within an hour and a half, the onward leg `longJourney` or longer.
    var isTransfer = false
    static let longJourney = 100_000.0
    /// For a stay at home: working hours on a day of work at home (`markWorkAtHome`).
    var isWorkAtHome = false
    /// For a stay at home: within breakfast's half hour (`Breakfast.length`) of a night's end,
    /// after a first piece shorter than that (`markBreakfasts`).
    var isBreakfast = false
    /// For a walk: walking about one place (`WalkingAbout`).
    var isAboutOnePlace = false
    /// For a stay away from home and work, and the moving about between its pieces: part of a workout (`markWorkouts`).
    var isWorkout = false
    /// For walking about one place: running a share of it (`TimeSlot.ranAbout`).
    var isRunningAbout = false
    /// For a walk or a short stop between two drives: part of an outing on foot (`markOutingsOnFoot`).
    var isOutingOnFoot = false
    /// For a walk: part of a walk out from a place back to it (`markWalksOut`).
    var isWalkOut = false
    /// For a stay elsewhere: between two stays at work, walked to and back (`markStaysNearWork`).
    var isNearWork = false

    struct Neighbour: Sendable, Hashable {
        var activity: MotionActivity
        var isSleep: Bool
        /// A rest that ends in the `morning` (04:00 to noon, local): the end of a night, not a nap.
        var endsANight = false
        /// Walking about one place (a shop's aisles).
        var isAboutOnePlace = false
    }

    var isStay: Bool { activity == .stationary }
    /// The local time at the middle of the slot, minutes after midnight (may exceed 1440).
    var middle: Double { startMinute + minutes / 2 }

    /// The context of every slot of a timeline.
    static func of(_ spans: [SlotSpan], places: DevicePlaces, timeZone: TimeZone) -> [SlotContext] {
        var contexts = spans.map { span in
            let observation = SlotObservation(start: span.start, duration: span.duration, activity: span.slot.activity, timeZone: timeZone)
            let stay = span.slot.activity == .stationary
            return SlotContext(
                activity: span.slot.activity, minutes: observation.minutes, startMinute: observation.minuteOfDay, weekday: observation.weekday,
                kind: stay ? places.kind(of: span.slot.location) : .unknown, place: stay ? places.place(of: span.slot.location) : nil,
                isAboutOnePlace: span.slot.aboutOnePlace == true)
        }
        for index in contexts.indices { contexts[index].isRunningAbout = spans[index].slot.ranAbout == true }
        markStillness(&contexts, spans)
        let habits = markRests(&contexts, spans)
        for index in contexts.indices {
            if index > 0, !spans[index - 1].slot.isGap {
                contexts[index].previous = contexts[index - 1].asNeighbour
            }
            if index + 1 < contexts.count, !spans[index + 1].slot.isGap {
                contexts[index].next = contexts[index + 1].asNeighbour
            }
        }
        var lastStay: Int?
        for index in contexts.indices {
            contexts[index].placeBefore = lastStay
            if contexts[index].isStay { lastStay = contexts[index].place }
            if spans[index].slot.isGap { lastStay = nil }
        }
        var nextStay: Int?
        for index in contexts.indices.reversed() {
            contexts[index].placeAfter = nextStay
            if contexts[index].isStay { nextStay = contexts[index].place }
            if spans[index].slot.isGap { nextStay = nil }
        }
        markVisits(&contexts, spans, places: places, days: LocalDays(timeZone), earlyDinners: eatsEarly(habits[0]))
        markBreakfasts(&contexts, spans)
        markBreaks(&contexts, spans)
        markWorkouts(&contexts, spans, places: places)
        markOutingsOnFoot(&contexts, spans)
        markWalksOut(&contexts, spans)
        markStaysNearWork(&contexts, spans)
        markWorkAtHome(&contexts, spans, places: places, days: LocalDays(timeZone))
        return contexts
    }

    /// In each stretch of stays at work, marks the break: a lunch out (`markLunchesOut`), else a
    /// short stay in the middle third begun and ended by getting up, at lunch time when the working
    /// day (`workingDays`) goes through it (the piece of work just before it is often as short, so
    /// of several the last is taken); none on a day with a lunch out at another place (`isLunchOut`).
    static func markBreaks(_ contexts: inout [SlotContext], _ spans: [SlotSpan]) {
        let lunchesOut = markLunchesOut(&contexts, spans)
        let workingDays = workingDays(contexts, spans)
        var runStart = 0
        for index in contexts.indices {
            guard contexts[index].isStay && contexts[index].kind == .work else {
                runStart = index + 1
                continue
            }
            guard index + 1 == contexts.count || !(contexts[index + 1].isStay && contexts[index + 1].kind == .work) else { continue }
            guard !lunchesOut.contains(where: { $0.contains(index) }) else { continue }
            let from = spans[runStart].start, to = spans[index].end
            let day = workingDays.first { $0.contains(index) } ?? runStart...index
            guard !day.contains(where: { contexts[$0].isStay && contexts[$0].kind != .work && isLunchOut(minutes: contexts[$0].minutes, start: contexts[$0].startMinute) }) else { continue }
            // A working day begun in the morning (not an early shift's small hours) and going on into
            // lunch time breaks for lunch, not at ten (a school's break).
            let lunch = meals[0].window, begun = contexts[day.lowerBound].startMinute
            let throughLunch = (7 * 60..<lunch.lowerBound).contains(begun)
                && begun + Double(spans[day.upperBound].end - spans[day.lowerBound].start) / 60_000 >= lunch.lowerBound + 30
            let breaks = (runStart...index).filter { member in
                guard member > runStart, member < index, (15...45).contains(contexts[member].minutes), spans[member - 1].slot.endsMoving == true,
                      spans[member].slot.endsMoving == true, !throughLunch || lunch.contains(contexts[member].localMiddle)
                else { return false }
                let position = Double((spans[member].start + spans[member].end) / 2 - from) / Double(to - from)
                return (0.3...0.7).contains(position)
            }
            if let last = breaks.last { contexts[last].isBreak = true }
        }
    }

    /// Marks the pieces of a stillness at home that go on breakfast: after a night's end drawn
    /// at a quarter hour (the phone showed none), the first piece is shorter than breakfast; after
    /// a first stay of a moment (`gettingUp`), the stay after the walk about the flat.
    static func markBreakfasts(_ contexts: inout [SlotContext], _ spans: [SlotSpan]) {
        let length = Double(Breakfast.length / 60_000)
        for index in contexts.indices where contexts[index].previous?.endsANight == true && contexts[index].isStay
            && contexts[index].kind == .home && !contexts[index].isSleep && contexts[index].minutes < length {
            var next = index + 1, eaten = contexts[index].minutes
            while next < contexts.count, eaten < length, contexts[next].stillFirst == contexts[index].stillFirst, !contexts[next].isSleep {
                contexts[next].isBreakfast = true
                eaten += contexts[next].minutes
                next += 1
            }
            // Up for a moment, then a walk about the flat (its own slot, or movement ending the stay:
            // a short one, or the charger unplugged): breakfast is after it.
            guard eaten < gettingUp else { continue }
            let walk = movement(from: next - 1, step: 1, contexts, spans)
            guard !(walk?.trip ?? false), walk != nil || spans[next - 1].slot.endsMoving == true else { continue }
            let after = walk?.reaches ?? next
            guard contexts.indices.contains(after), !spans[after].slot.isGap, contexts[after].isStay, contexts[after].kind == .home,
                  !contexts[after].isSleep else { continue }
            var piece = after
            while piece < contexts.count, contexts[piece].stillFirst == contexts[after].stillFirst, !contexts[piece].isSleep,
                  contexts[piece].startMinute - contexts[index].startMinute < length - gettingUp {
                contexts[piece].isBreakfast = true
                piece += 1
            }
        }
    }

    /// A first stay after the night shorter than this (minutes), ended by a walk about the flat, is
    /// getting up: breakfast goes on after the walk, to `Breakfast.length` from getting up, less
    /// this (no breakfast of two minutes).
    static let gettingUp = 10.0

    /// Stays further apart than this, with movement between them, are at different places.
    static let nearbyPlace = 100.0

    /// Lunch and dinner times, around the standard day's: when a meal may be, the start a meal
    /// the phone shows is preferred close to, and the start taken when it shows none (`UsualMeal`).
    typealias Meal = (window: ClosedRange<Double>, centre: Double, usual: Double)
    static let meals: [Meal] = [
        (11 * 60 + 30...14 * 60 + 30, 13 * 60, 12 * 60 + 30), (17 * 60 + 30...21 * 60, 19 * 60 + 15, 19 * 60),
    ]

    /// A meal the phone shows only the end of (getting up, with nothing before it) starts at
    /// most this many minutes from the usual one (or the person's own, `ownMealStart`): further
    /// off, getting up is more likely a walk about the flat than the end of a meal.
    static let oneEndShown = 45.0

    /// Sets each stay's visit length, then the meals of the visits home or to a night away (`markMeals`, `markSnacks`).
    static func markVisits(_ contexts: inout [SlotContext], _ spans: [SlotSpan], places: DevicePlaces, days: LocalDays, earlyDinners: Bool = false) {
        var first = 0
        var lodgingVisits: [ClosedRange<Int>] = []
        while first < contexts.count {
            guard contexts[first].isStay, let place = contexts[first].place else {
                if contexts[first].isStay { (contexts[first].visitMinutes, contexts[first].visitStart) = (contexts[first].minutes, contexts[first].startMinute) }
                first += 1
                continue
            }
            var last = first
            while last + 1 < contexts.count, contexts[last + 1].isStay, contexts[last + 1].place == place { last += 1 }
            let minutes = contexts[first...last].reduce(0) { $0 + $1.minutes }
            let pieces = Set(contexts[first...last].map(\.stillFirst)).count
            let longest = contexts[first...last].map(\.stillMinutes).max() ?? 0
            // The leg after the wait is a long one (a flight, a train).
            let onward = contexts[last].placeAfter.map { places.places[place].centre.distance(to: places.places[$0].centre) } ?? 0
            let transfer = minutes <= 90 && contexts[first].previous?.activity == .automotive && contexts[last].next?.activity == .automotive
                && contexts[first].placeBefore != nil && contexts[first].placeBefore != contexts[last].placeAfter && onward >= longJourney
            for index in first...last {
                (contexts[index].visitMinutes, contexts[index].visitPieces, contexts[index].longestPiece) = (minutes, pieces, longest)
                contexts[index].visitStart = contexts[first].startMinute
                contexts[index].isTransfer = transfer
            }
            // A night away (a hotel) is home for its meals.
            if contexts[first].kind == .home || contexts[first].kind == .other && contexts[first...last].contains(where: \.isSleep) {
                lodgingVisits.append(first...last)
            }
            first = last + 1
        }
        markMeals(&contexts, spans, lodgingVisits: lodgingVisits, days: days, earlyDinners: earlyDinners)
        markSnacks(&contexts, spans, lodgingVisits: lodgingVisits, days: days)
    }

    var asNeighbour: Neighbour {
        let end = (startMinute + minutes).truncatingRemainder(dividingBy: 1440)
        return Neighbour(activity: activity, isSleep: isSleep, endsANight: isSleep && Self.morning.contains(end), isAboutOnePlace: isAboutOnePlace)
    }

    /// A stillness that starts in the afternoon or evening and ends before the small hours: an
    /// evening, not a rest, when a night follows it.
    var isEvening: Bool {
        let end = stillStart + stillMinutes
        return stillStart >= Double(NightSplit.eveningStart * 60) && end <= 25 * 60
    }

    /// A rest is a stillness at home at least `rest` long, through the small hours (01:00–05:00)
    /// or, at any hour (a night worker's day, after small hours not spent resting at home), one
    /// at least `dayRestPiece` long (a day's sleep broken by a walk to the bathroom) that is
    /// `longRest` long with the stillness at home next to it: a long evening without moving is
    /// not a night, nor a still day after one.
    static let rest = 180.0
    static let dayRestPiece = 150.0
    static let longRest = 300.0

    /// Marks the rests at home, whenever they happen, then the pieces of a rest broken by a walk:
    /// long ones next to it, ones in the small hours, and a long one after it in the morning; last
    /// the naps before a night away (`markNapsBeforeNights`).
    /// Returns the person's sleep habits (before working days, then days off).
    static func markRests(_ contexts: inout [SlotContext], _ spans: [SlotSpan]) -> [SleepHabits] {
        func atHome(_ index: Int) -> Bool {
            contexts.indices.contains(index) && contexts[index].isStay && contexts[index].kind == .home && !spans[index].slot.isGap
        }
        func smallHours(_ index: Int) -> Bool {
            let still = contexts[index], end = still.stillStart + still.stillMinutes
            return [60.0, 60 + 1440].contains { from in still.stillStart < from + 240 && end > from }
        }
        for index in contexts.indices where contexts[index].isStay && !spans[index].slot.isGap && contexts[index].stillFirst == index
            && contexts[index].stillMinutes >= dayRestPiece {
            let still = contexts[index]
            var last = index
            while last + 1 < contexts.count && contexts[last + 1].stillFirst == index { last += 1 }
            if !atHome(index) {
                // A night away (a hotel, a friend's): a rest through the small hours anywhere but at work.
                guard still.stillMinutes >= rest, still.kind != .work && smallHours(index) else { continue }
                for member in index...last { contexts[member].isSleep = true }
                continue
            }
            if smallHours(index) {
                guard still.stillMinutes >= rest else { continue }
                for member in index...last { (contexts[member].isSleep, contexts[member].isNightRest) = (true, true) }
                continue
            }
            // A rest by day (a night worker's) follows small hours spent awake or away; an evening
            // is not one (a night follows it, or the data ends before the night), nor a stillness
            // after the day's rest.
            let around = [index - 1, last + 1].filter(atHome).filter { !smallHours($0) }.map { contexts[$0].stillMinutes }.filter { $0 >= 60 }.max() ?? 0
            let nightBefore = contexts[..<index].indices.reversed().prefix { spans[index].start - spans[$0].end < 10 * 3_600_000 }
                .contains { contexts[$0].isNightRest }
            guard still.stillMinutes + around >= longRest, !still.isEvening, !nightBefore,
                  !sleptByDay(before: index, contexts, spans) else { continue }
            for member in index...last { contexts[member].isSleep = true }
        }
        // The night in progress: the last stillness of the data, at home, begun late in the evening
        // and an hour long or going on past 21:00 (after a walk at 23:10, still at midnight), unless
        // the person got up from a day's sleep that afternoon (after a night shift).
        if let last = contexts.indices.last, atHome(last), !contexts[last].isSleep {
            let still = contexts[last], lateEvening = Double(NightSplit.lateEvening * 60)
            let rest = contexts[..<still.stillFirst].lastIndex { $0.isSleep && $0.kind == .home }
            let upAt = rest.map { (contexts[$0].startMinute + contexts[$0].minutes).truncatingRemainder(dividingBy: 1440) }
            let upByDay = rest.map { !contexts[$0].isNightRest } == true && upAt.map { $0 >= morning.upperBound && $0 < still.stillStart } == true
            // Or begun in the afternoon and going on an hour past the usual bedtime (an earlier one
            // seen at the charger: a child's 21:00), unless the person got up late that day (no
            // earlier than `longestDay` after it, less by as much as that bedtime is earlier).
            let bedtime = min(SleepHabits.usual.bedtime, bedtimeSeenAtCharger(contexts, spans, dayOff: (still.weekday + 1) % 7 >= 5) ?? .infinity)
            let pastBedtime = still.stillStart >= Double(NightSplit.eveningStart * 60)
                && still.stillStart + still.stillMinutes >= max(bedtime, (upAt ?? 0) + Self.longestDay - (SleepHabits.usual.bedtime - bedtime)) + 60
            if (lateEvening..<1440).contains(still.stillStart) && (still.stillMinutes >= 60 || still.stillStart + still.stillMinutes >= lateEvening + 60) && !upByDay
                || pastBedtime {
                for member in still.stillFirst...last { (contexts[member].isSleep, contexts[member].isNightRest) = (true, true) }
            }
        }
        // Then the stays next to a rest; once more after the person's habits have set the nights' ends.
        let rests = contexts.map(\.isSleep)
        markNextToRests(&contexts, spans)
        let habits = markSleepHabits(&contexts, spans)
        for index in contexts.indices where !rests[index] && !contexts[index].isUp { contexts[index].isSleep = false }
        markNextToRests(&contexts, spans, habits: habits)
        markNapsBeforeNights(&contexts, spans)
        return habits
    }

    /// The morning, local minutes after midnight: a rest ending in it ends a night; one ending
    /// after it is a day's sleep or a nap.
    static let morning = 4.0 * 60..<12.0 * 60

    /// Whether the day's rest before `index` ended after noon (a day's sleep after a night shift):
    /// the stillnesses that follow it that afternoon and evening are neither a rest nor a nap.
    static func sleptByDay(before index: Int, _ contexts: [SlotContext], _ spans: [SlotSpan]) -> Bool {
        guard let rest = contexts[..<index].lastIndex(where: \.isSleep), spans[index].start - spans[rest].end < 12 * 3_600_000 else { return false }
        let ended = contexts[rest].startMinute + contexts[rest].minutes
        return ended.truncatingRemainder(dividingBy: 1440) >= morning.upperBound && ended < 1440 + morning.upperBound
    }

    /// Minutes a day lasts at most from getting up to going to bed, for a night the phone does not show begin.
    static let longestDay = 14.5 * 60
    /// A rest this long (minutes) is a whole night's.
    static let wholeNight = 7.0 * 60
    /// A rest by day this long (minutes) is a whole day's sleep: the walk after it is getting up.
    static let wholeDayRest = 6.0 * 60
    /// A day's sleep broken by a walk (the bathroom) lasts no longer than this (minutes) with its pieces.
    static let longestDayRest = 7.5 * 60

    /// The first stay of the rest at home just before the stillness beginning at `first`: the stays
    /// marked as sleep back to the last that was not (`first` itself when there is none).
    static func restStart(before first: Int, _ contexts: [SlotContext], _ spans: [SlotSpan]) -> Int {
        var earliest = first
        while earliest > 0, contexts[earliest - 1].isStay, contexts[earliest - 1].isSleep, contexts[earliest - 1].kind == .home,
              !spans[earliest - 1].slot.isGap {
            earliest -= 1
        }
        return earliest
    }

    /// The minutes of rest at home just before the stillness beginning at `first`.
    static func restBefore(_ first: Int, _ contexts: [SlotContext], _ spans: [SlotSpan]) -> Double {
        Double(spans[first].start - spans[restStart(before: first, contexts, spans)].start) / 60_000
    }

    /// Whether the rest at home just before the stillness beginning at `first` began as the charger
    /// was plugged in (or out), or up to `tripOut` after.
    static func restBeganAtCharger(before first: Int, _ contexts: [SlotContext], _ spans: [SlotSpan]) -> Bool {
        let start = restStart(before: first, contexts, spans)
        guard start < first else { return false }
        return chargerJustBefore(start, spans)
    }

    /// Whether the charger was plugged in (or out) as the slot at `index` began or up to `tripOut`
    /// before: plugged in a few minutes before lying down, a walk between.
    static func chargerJustBefore(_ index: Int, _ spans: [SlotSpan]) -> Bool {
        spans[..<index].reversed().prefix { spans[index].start - $0.end <= tripOut }.contains { $0.slot.endsAtCharger == true }
    }

    /// Marks the stays at home next to a rest that belong to it (judged as whole stillnesses: a
    /// stillness cut at working hours is one), but for the quarter hours the person is up (`isUp`);
    /// away, an hour or more still after a walk in a night there, mostly before the usual hour of
    /// getting up (or the person's own, from `habits` for working days and days off, when later).
    static func markNextToRests(_ contexts: inout [SlotContext], _ spans: [SlotSpan], habits: [SleepHabits]? = nil) {
        let (quiet, carried) = phoneAtHome(contexts, spans)
        for _ in 0..<2 {
            for index in contexts.indices where contexts[index].isStay && [.home, .other].contains(contexts[index].kind) && !contexts[index].isSleep
                && !contexts[index].isUp {
                let first = contexts[index].stillFirst
                var last = index
                while last + 1 < contexts.count && contexts[last + 1].stillFirst == first { last += 1 }
                let restEnds = first > 0 && !spans[first - 1].slot.isGap && contexts[first - 1].isSleep
                let restFollows = last + 1 < contexts.count && !spans[last + 1].slot.isGap && contexts[last + 1].isSleep
                // Not across the charger plugged in or out: the night begins or ends there for certain.
                let before = restEnds && spans[first - 1].slot.endsAtCharger != true
                let after = restFollows && spans[last].slot.endsAtCharger != true
                let byCharger = restEnds != before || restFollows != after
                let context = contexts[first], still = context.stillMinutes
                let middle = (context.stillStart + still / 2).truncatingRemainder(dividingBy: 1440)
                let evening = after && !before && context.isEvening
                // The morning after a night ends with the first activity after 11:30 at the latest.
                // So does a day's sleep (after a night shift) with the first walk after a whole day's rest.
                let afternoon = before && !after && (contexts[first - 1].isNightRest ? context.stillStart + still > 11.5 * 60
                    : restBefore(first, contexts, spans) >= wholeDayRest)
                // A day's sleep broken by a walk before it was a whole one: an hour or more still after
                // the walk is more of it, while the two make no longer a day's sleep than `longestDayRest`
                // (a nurse in bed from 08:40, up to the bathroom at 13:08, up for the day at 15:13).
                let restSoFar = before ? restBefore(first, contexts, spans) : 0
                let dayRestGoesOn = before && !after && !contexts[first - 1].isNightRest && still >= 60
                    && restSoFar < wholeDayRest && restSoFar + still <= longestDayRest
                // A walk on a working morning after a whole night's rest is getting up, however still
                // the phone lies after it (on a table); on a day off the person may sleep on.
                let risen = before && !after && context.weekday < 5 && (6 * 60..<12 * 60).contains(context.stillStart)
                    && restBefore(first, contexts, spans) >= wholeNight
                // Otherwise an hour still after a walk in the night is more of it while mostly before
                // the usual time of getting up, or the person's own on such a day when later (a
                // Saturday's lie-in); after it, the walk was getting up.
                let ownWakeUp = habits?[context.weekday >= 5 ? 1 : 0].wakeUp ?? SleepHabits.usual.wakeUp
                let lateNight = still >= 60 && before && middle < max(ownWakeUp, SleepHabits.usual.wakeUp)
                // Away (a hotel), only that: an evening out or a bar is no night's edge.
                guard context.kind == .home else {
                    contexts[index].isSleep = lateNight
                    continue
                }
                // Home from a trip out, up a while before a walk to bed: that walk begins the night.
                let homeLate = after && !before && first > 0 && !contexts[first - 1].isStay && !spans[first - 1].slot.isGap
                    && still < 60 && spans[last].slot.endsMoving == true
                // In the small hours, a stillness next to the night is more of it, but for one the
                // charger bounds (up until plugging it in) and, with a carried phone, under an hour
                // before it (its walk into the night is going to bed).
                let smallHours = middle < 5 * 60 && !byCharger && (still >= 60 || before || after && !carried)
                // The charger plugged in late in the evening, still until a walk into the night: the
                // phone was put to charge going to bed (the walk got up in the night).
                let chargedForBed = restFollows && !restEnds && first > 0 && spans[first - 1].slot.endsAtCharger == true
                    && spans[last].slot.endsAtCharger != true && context.stillStart >= Double(NightSplit.lateEvening * 60)
                // Still an hour or more from after the person's usual bedtime (`inBedBy`) until a walk
                // into the night: in bed already (the walk got up in the night).
                let usual = habits?[(context.weekday + 1) % 7 >= 5 ? 1 : 0]  // of the morning after
                let inBed = after && !before && !byCharger && still >= 60 && usual?.inBedBy.map { context.stillStart >= $0 } == true
                // Still from before the person's usual bedtime until a walk in the night (`isNightWalk`):
                // in bed by then (the walk got up in it), the night drawn from the stillness, or from
                // that bedtime when the stillness began well before it (the evening on the sofa).
                let inBedThrough = after && !before && !byCharger && context.stillStart >= Double(NightSplit.eveningStart * 60)
                    && usual?.isNightWalk(at: context.stillStart + still, stillSince: context.stillStart) == true
                // The charger plugged in as the rest before began and unplugged ending this stillness, an
                // hour or more: the phone charged through the rest (a day's sleep), the walk got up in it
                // (shorter, the walk was getting up and the phone unplugged after).
                let chargedThrough = before && !after && still >= 60 && spans[last].slot.endsAtCharger == true
                    && restBeganAtCharger(before: first, contexts, spans)
                // Still an hour or more in the morning until a walk into a day's sleep (after a night
                // awake): in bed already (the walk got up in it).
                let inBedByDay = after && !before && !byCharger && still >= 60 && morning.contains(context.stillStart)
                    && !contexts[last + 1].isNightRest
                let eveningFirst = inBedThrough && usual.map { usual in
                    let bedtime = (usual.bedtime / 15).rounded() * 15, offset = Double(spans[index].start - spans[first].start) / 60_000
                    return bedtime - context.stillStart >= bedtimeMargin(usual, quiet: quiet, carried: carried)
                        && context.stillStart + offset + contexts[index].minutes <= bedtime + 1
                } == true
                contexts[index].isSleep = !risen && !homeLate && ((still >= 135 && (before || after) && !evening && !afternoon)
                    || smallHours || lateNight || chargedForBed || inBed || inBedThrough && !eveningFirst || chargedThrough || inBedByDay || dayRestGoesOn)
            }
        }
    }

    /// Sets each stay's stillness: consecutive stays at one place with no movement between them.
    static func markStillness(_ contexts: inout [SlotContext], _ spans: [SlotSpan]) {
        var first = 0
        while first < contexts.count {
            guard contexts[first].isStay else {
                first += 1
                continue
            }
            var last = first
            while last + 1 < contexts.count, contexts[last + 1].isStay, spans[last].slot.endsMoving != true,
                  contexts[last + 1].place == contexts[first].place, contexts[first].place != nil {
                last += 1
            }
            let minutes = contexts[first...last].reduce(0) { $0 + $1.minutes }
            for index in first...last {
                (contexts[index].stillFirst, contexts[index].stillStart, contexts[index].stillMinutes) = (first, contexts[first].startMinute, minutes)
            }
            first = last + 1
        }
    }
}
