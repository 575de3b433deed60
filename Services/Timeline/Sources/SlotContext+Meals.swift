/// The meals of a visit home, or to where the person spends a night away (a lodging: a hotel, a
/// friend's): the stay per day and meal time most like the meal (begun by getting
/// up, starting near its time, not just home, and lasting about as long as one), the meal on coming home at its
/// time, or, when the day shows none, the pieces cut at the time the person's phone shows their
/// meals at (`ownMealStart`; the usual time until it has shown a few).
extension SlotContext {
    /// A stay begun by coming home counts this many minutes further from the meal's time than one
    /// begun by getting up at home: most people settle in (or cook) before they eat.
    static let settlingIn = 15.0
    /// The same for a stay begun by arriving at a lodging: checking in and unpacking take longer.
    static let checkingIn = 45.0

    static func markMeals(_ contexts: inout [SlotContext], _ spans: [SlotSpan], lodgingVisits: [ClosedRange<Int>], days: LocalDays, earlyDinners: Bool = false) {
        // Local minutes after midnight each stay begins; whether the phone shows little at home.
        let starts = contexts.map { $0.startMinute.truncatingRemainder(dividingBy: 1440) }
        let quiet = phoneAtHome(contexts, spans).quiet, restless = restlessAtHome(contexts, spans)
        func mark(_ meal: Meal, arrivingTo usual: Double, on workingDays: Bool? = nil) {
            markMeal(
                meal, arrivingTo: usual, on: workingDays, &contexts, spans, lodgingVisits: lodgingVisits, days: days, starts: starts, quiet: quiet,
                restless: restless)
        }
        let dinner = meals[meals.count - 1]
        for meal in meals {
            // How much earlier on working days (dinner, for a person early to bed), and how much later the usual start on days off (lunch).
            let earlier = meal.usual == dinner.usual && earlyDinners ? earlyDinner : 0, later = meal.usual == dinner.usual ? 0 : lunchOnDaysOff
            guard earlier != 0 || later != 0 else {
                mark(meal, arrivingTo: meal.usual)
                continue
            }
            let workingDay: Meal = (meal.window, meal.centre - earlier, meal.usual - earlier), dayOff: Meal = (meal.window, meal.centre, meal.usual + later)
            mark(workingDay, arrivingTo: meal.usual, on: true)
            mark(dayOff, arrivingTo: meal.usual, on: false)
        }
    }

    /// A person in bed by this local minute before working days (their own bedtime, or one seen at
    /// the charger while too few nights are seen) has dinner `earlyDinner` minutes before the usual
    /// time on working days: a child in bed by 21:00 on school nights eats at 18:30, not at 19:00.
    static let earlyBedtime = 21 * 60 + 30.0
    static let earlyDinner = 30.0
    /// On a day off (Saturday, Sunday) lunch at home the phone shows nothing of starts this many
    /// minutes after the usual time (at 13:00, not 12:30): the morning starts later.
    static let lunchOnDaysOff = 30.0

    /// Whether the person has dinner early on working days (`earlyBedtime`), by their habits before them.
    static func eatsEarly(_ habits: SleepHabits) -> Bool {
        (habits.ownBedtime || habits.bedtimeAtCharger) && habits.bedtime <= earlyBedtime
    }

    /// Marks `meal` (`markMeals`) on the days of the week `on` says (working days, Monday to Friday,
    /// or days off; every day when `nil`), the meal on coming home at its time by the one of
    /// `arrivingTo` usual start (`MealEnd.mealsOnArrival`). `starts`: the local minute after midnight
    /// each stay begins; `quiet`: the phone shows little at home (`phoneAtHome`); `restless`: its
    /// walks show no meals (`restlessAtHome`), which are put at the usual time, near it as the walks part the day.
    static func markMeal(
        _ meal: Meal, arrivingTo usualArrival: Double, on workingDays: Bool?, _ contexts: inout [SlotContext], _ spans: [SlotSpan],
        lodgingVisits: [ClosedRange<Int>], days: LocalDays, starts: [Double], quiet: Bool, restless: Bool
    ) {
        let onDay = contexts.map { context in workingDays.map { (context.weekday < 5) == $0 } ?? true }
        // The person's own time for the meal, from the meals shown whole (which need no time to be found).
        let shownStarts = restless ? [] : lodgingVisits.flatMap { visit in
            bestMeals(meal, in: visit, mealCandidates(meal, in: visit, contexts, spans, usual: meal.usual), contexts, spans, days: days).values
                .filter { begunMoving($0, in: visit, spans) }.map { starts[$0] }
        }
        let learned = shownStarts.count >= fewestMealsShown
        let own = ownMealStart(meal, shownStarts)
        // With a phone on a table, getting up may begin the meal as often as end it: which, the
        // person's own time tells once it is learned.
        let halfShownNear = learned ? own : meal.centre
        // No meal in a short time at home before going out again and back by the meal's end (`beforeGoingOutAgain`).
        let candidates = lodgingVisits.map {
            restless ? [] : mealCandidates(meal, in: $0, contexts, spans, usual: own, startShown: quiet && learned).filter {
                onDay[$0] && !beforeGoingOutAgain($0, meal, contexts, spans)
            }
        }
        // One meal a day, the best of the day's visits (home for lunch, out, home again: one lunch).
        var byDay: [String: (key: MealKey, visit: ClosedRange<Int>, index: Int)] = [:]
        for (visit, candidates) in zip(lodgingVisits, candidates) {
            for (day, best) in bestMeals(meal, in: visit, candidates, contexts, spans, days: days, halfShownNear: halfShownNear) {
                let key = mealKey(best, meal, in: visit, contexts, spans, halfShownNear: halfShownNear)
                if byDay[day].map({ key < $0.key }) ?? true { byDay[day] = (key, visit, best) }
            }
        }
        for (_, visit, best) in byDay.values {
            for piece in best..<best + (mealBegun(best, in: visit, meal.window, contexts, spans) ?? 1) { contexts[piece].isMealTime = true }
        }
        for (visit, candidates) in zip(lodgingVisits, candidates) {
            let (first, last) = (visit.lowerBound, visit.upperBound)
            // The meal on coming home at its time (`MealEnd.arrival`), if the visit shows none.
            var arrivedToMeal = false
            if onDay[first], let pieces = arrivesToMeal(first, last, usualArrival, contexts, spans),
               !candidates.contains(where: { $0 != first && contexts[$0].startMinute < contexts[first].startMinute + 120 }) {
                for piece in first..<first + pieces { contexts[piece].isMealTime = true }
                arrivedToMeal = true
            }
            // A day whose stay shows no meal: the pieces cut at the person's own time (`UsualMeal`), or
            // at the usual one if the stay does not hold that, if not asleep.
            let cut = visit.filter {
                onDay[$0] && [own, meal.usual].contains(starts[$0]) && !contexts[$0].isSleep && byDay[days.name(of: spans[$0].start)] == nil
            }
            for sameDay in Dictionary(grouping: cut, by: { days.name(of: spans[$0].start) }).values {
                let from = sameDay.first { starts[$0] == own } ?? sameDay[0]
                for piece in from..<from + mealPieces(from: from, through: last, contexts) { contexts[piece].isMealTime = true }
            }
            if restless, !arrivedToMeal {
                let marked = Set(cut.map { days.name(of: spans[$0].start) })
                markRestlessMeal(meal, in: visit, at: own, skipping: marked, onDay: onDay, &contexts, spans, days: days, starts: starts)
            }
        }
    }

    /// A time at home shorter than this between coming home and going out again is getting ready
    /// to go (changing for the gym), when the person is back home before the meal's window ends:
    /// the meal is then after the outing, not in it.
    static let briefTimeHome = 60.0

    /// Whether the stay at `index` is in a brief time at home (`briefTimeHome`, walks about the
    /// flat included) between a trip home and a trip out, back home from which before `meal`'s
    /// window ends, the data going on all the while.
    static func beforeGoingOutAgain(_ index: Int, _ meal: Meal, _ contexts: [SlotContext], _ spans: [SlotSpan]) -> Bool {
        func home(_ i: Int) -> Bool { contexts.indices.contains(i) && contexts[i].isStay && contexts[i].kind == .home && !spans[i].slot.isGap }
        // The time at home around `index`, from `first` to `last` (walks about the flat within it),
        // and whether a trip (`movement`) comes before and after it.
        func edge(_ from: Int, _ step: Int) -> (home: Int, trip: Bool) {
            var edge = from
            while true {
                if home(edge + step) { edge += step; continue }
                guard let moved = movement(from: edge, step: step, contexts, spans) else { return (edge, false) }
                if !moved.trip, home(moved.reaches) { edge = moved.reaches; continue }
                return (edge, moved.trip)
            }
        }
        let (first, arrived) = edge(index, -1), (last, leaves) = edge(index, 1)
        guard arrived, leaves, Double(spans[last].end - spans[first].start) / 60_000 < briefTimeHome else { return false }
        guard let back = contexts[(last + 1)...].firstIndex(where: { $0.isStay && $0.kind == .home }),
              !spans[(last + 1)..<back].contains(where: \.slot.isGap) else { return false }
        return contexts[first].startMinute + Double(spans[back].start - spans[first].start) / 60_000 <= meal.window.upperBound
    }

    /// The meal of each day of `visit` among `candidates` (by the day's name): one the phone shows
    /// whole (begun by getting up or coming home, ending its stillness) first, nearest the meal's
    /// time; else one it shows an end of, nearest `halfShownNear`; each also nearest a meal's length,
    /// a stay begun by coming home counted `settlingIn` further off (by arriving at a lodging, `checkingIn`).
    static func bestMeals(
        _ meal: Meal, in visit: ClosedRange<Int>, _ candidates: [Int], _ contexts: [SlotContext], _ spans: [SlotSpan], days: LocalDays,
        halfShownNear: Double? = nil
    ) -> [String: Int] {
        func key(_ index: Int) -> MealKey { mealKey(index, meal, in: visit, contexts, spans, halfShownNear: halfShownNear) }
        return Dictionary(grouping: candidates, by: { days.name(of: spans[$0].start) }).mapValues { $0.min { key($0) < key($1) }! }
    }

    /// How like `meal` the stay at `index` of `visit` is (`bestMeals`; the least is the most): shown whole
    /// or not, then minutes off its time and off a meal's length.
    typealias MealKey = (notWhole: Int, off: Double)
    static func mealKey(
        _ index: Int, _ meal: Meal, in visit: ClosedRange<Int>, _ contexts: [SlotContext], _ spans: [SlotSpan], halfShownNear: Double?
    ) -> MealKey {
        let whole = begunMoving(index, in: visit, spans) && endsStillness(index, contexts)
        let near = whole ? meal.centre : halfShownNear ?? meal.centre
        let arriving = index != visit.lowerBound ? 0 : contexts[index].kind == .home ? settlingIn : checkingIn
        return (whole ? 0 : 1, abs(contexts[index].startMinute - near) + abs(contexts[index].minutes - MealEnd.mealMinutes) + arriving)
    }

    /// Whether the stay at `index` ends its stillness (getting up, or leaving).
    static func endsStillness(_ index: Int, _ contexts: [SlotContext]) -> Bool {
        index == contexts.count - 1 || contexts[index + 1].stillFirst != contexts[index].stillFirst
    }

    /// Meals the phone shows whole (begun by getting up or coming home, ended by getting up) on
    /// this many days or more give the person's own time for `meal`: their middle start, to the quarter hour.
    static let fewestMealsShown = 3

    /// The local minute a meal the phone shows nothing of starts at: the person's own time, within
    /// `UsualMeal.starts` of the usual one, from the starts of the meals shown whole; else the usual one.
    static func ownMealStart(_ meal: Meal, _ shownStarts: [Double]) -> Double {
        guard shownStarts.count >= fewestMealsShown else { return meal.usual }
        let middle = (SleepHabits.quantile(shownStarts, 0.5) / 15).rounded() * 15
        return min(max(middle, meal.usual + UsualMeal.starts.first!), meal.usual + UsualMeal.starts.last!)
    }

    /// Whether the stay at `index` of a visit begins with getting up (or the visit).
    static func begunMoving(_ index: Int, in visit: ClosedRange<Int>, _ spans: [SlotSpan]) -> Bool {
        index == visit.lowerBound || spans[index - 1].slot.endsMoving == true
    }

    /// A meal out on a night away (a restaurant near the hotel) lasts up to this many minutes; at home, 55.
    static let longestMealOut = 90.0

    /// Whether the stay at `index` is shaped like a meal in `window`: 20 to 55 minutes
    /// (`longestMealOut` away from home) with its middle in the window, ending its stillness.
    static func mealShaped(_ index: Int, in window: ClosedRange<Double>, _ contexts: [SlotContext]) -> Bool {
        let context = contexts[index]
        return (20...(context.kind == .home ? 55 : longestMealOut)).contains(context.minutes) && window.contains(context.localMiddle)
            && endsStillness(index, contexts)
    }

    /// The stays of a visit home (or a night away) that may be `meal`: shaped like one around its
    /// time (`mealShaped`), begun by getting up or ended by it near `usual` (the meal's usual start,
    /// or the person's own; `MealEnd`), and no stay the person gets up from to go to bed (for the
    /// night, or for a nap when getting up did not begin it). With
    /// `startShown`, also the pieces of a meal's length after getting up near `usual` (`mealBegun`).
    static func mealCandidates(
        _ meal: Meal, in visit: ClosedRange<Int>, _ contexts: [SlotContext], _ spans: [SlotSpan], usual: Double, startShown: Bool = false
    ) -> [Int] {
        visit.filter {
            let begun = begunMoving($0, in: visit, spans), lastOne = $0 == contexts.count - 1
            if startShown, mealBegun($0, in: visit, meal.window, contexts, spans) != nil {
                return abs(contexts[$0].startMinute - usual) <= oneEndShown
            }
            return mealShaped($0, in: meal.window, contexts)
                && (lastOne || !contexts[$0 + 1].isSleep || begun && !contexts[$0 + 1].isNightRest)
                && (begun || abs(contexts[$0].startMinute - usual) <= oneEndShown)
        }
    }

    /// How many pieces of the stillness from `index` (up to `last`) begin within a meal's length of
    /// it, awake: a meal that other cuts part.
    static func mealPieces(from index: Int, through last: Int, _ contexts: [SlotContext]) -> Int {
        let length = MealEnd.mealMinutes
        var piece = index
        while piece <= last, contexts[piece].stillFirst == contexts[index].stillFirst, !contexts[piece].isSleep,
              contexts[piece].startMinute - contexts[index].startMinute < length {
            piece += 1
        }
        return piece - index
    }

    /// If the stay at `index` begins the pieces `MealEnd.begun` cut after getting up (not by coming
    /// home) with more of the stillness after them, awake: how many (`mealPieces`), a meal's length
    /// with its middle in `window`.
    static func mealBegun(_ index: Int, in visit: ClosedRange<Int>, _ window: ClosedRange<Double>, _ contexts: [SlotContext], _ spans: [SlotSpan]) -> Int? {
        guard index != visit.lowerBound, begunMoving(index, in: visit, spans) else { return nil }
        let length = MealEnd.mealMinutes, count = mealPieces(from: index, through: visit.upperBound, contexts), after = index + count
        let minutes = contexts[index..<after].reduce(0) { $0 + $1.minutes }
        let middle = (contexts[index].startMinute + length / 2).truncatingRemainder(dividingBy: 1440)
        guard count > 0, after <= visit.upperBound, contexts[after].stillFirst == contexts[index].stillFirst, !contexts[after].isSleep,
              abs(minutes - length) <= 1, window.contains(middle) else { return nil }
        return count
    }

    /// If the visit from `first` to `last` begins with the meal of `usual` start on coming home
    /// from a trip at its time (the piece `MealEnd.arrival` cut, which another cut, the hour's, may
    /// part): how many pieces it is.
    static func arrivesToMeal(_ first: Int, _ last: Int, _ usual: Double, _ contexts: [SlotContext], _ spans: [SlotSpan]) -> Int? {
        guard MealEnd.mealsOnArrival.contains(usual), first > 0, first < last, !contexts[first - 1].isStay, !contexts[first].isSleep,
              spans[first - 1].duration >= tripOut, MealEnd.arrivals(usual).contains(contexts[first].startMinute) else { return nil }
        let count = mealPieces(from: first, through: last, contexts), after = first + count
        let minutes = contexts[first..<after].reduce(0) { $0 + $1.minutes }
        guard after <= last, contexts[after].stillFirst == contexts[first].stillFirst, abs(minutes - MealEnd.mealMinutes) <= 1 else { return nil }
        return count
    }
}
