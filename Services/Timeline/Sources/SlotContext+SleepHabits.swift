/// A night at home the phone shows no end of (a still evening, a still morning) begins at the
/// person's usual bedtime and ends at their usual time of getting up (`SleepHabits`): the
/// quarter hours of a night's stillness before the one, or after the other, are not the rest.
extension SlotContext {
    /// A night broken by a walk (the bathroom) has pieces shorter than this (minutes) next to its rest.
    static let nightPiece = 240.0
    /// A night with its broken pieces lasts no longer than this (ms).
    static let longestNight: Int64 = 16 * 3_600_000

    /// The nights at home in `contexts`: each rest through the small hours (`isNightRest`) with
    /// the shorter rests at home next to it (a night broken by a walk is one).
    static func nights(_ contexts: [SlotContext], _ spans: [SlotSpan]) -> [ClosedRange<Int>] {
        func resting(_ index: Int) -> Bool {
            contexts.indices.contains(index) && !spans[index].slot.isGap && contexts[index].isSleep && contexts[index].kind == .home
                && (contexts[index].isNightRest || contexts[index].stillMinutes < nightPiece)
        }
        func walk(_ index: Int) -> Bool {
            contexts.indices.contains(index) && !contexts[index].isStay && !spans[index].slot.isGap && spans[index].duration < tripOut
        }
        var nights: [ClosedRange<Int>] = []
        for index in contexts.indices where contexts[index].isNightRest && !(nights.last?.contains(index) ?? false) {
            var first = index, last = index
            // A piece of the same stillness joins; another rest not when it makes the night too long
            // to be one (a still day between two nights).
            func joins(_ earlier: Int, _ later: Int) -> Bool {
                contexts[earlier].stillFirst == contexts[later].stillFirst
                    || spans[max(later, last)].end - spans[min(earlier, first)].start <= longestNight
            }
            while (resting(first - 1) && joins(first - 1, first)) || (walk(first - 1) && resting(first - 2) && joins(first - 2, first)) {
                first -= resting(first - 1) ? 1 : 2
            }
            while (resting(last + 1) && joins(last, last + 1)) || (walk(last + 1) && resting(last + 2) && joins(last, last + 2)) {
                last += resting(last + 1) ? 1 : 2
            }
            nights.append(first...last)
        }
        return nights
    }

    /// A night as seen: its start when movement comes before it, its end when movement ends it.
    static func seen(_ night: ClosedRange<Int>, _ contexts: [SlotContext], _ spans: [SlotSpan]) -> SleepHabits.Night {
        let first = night.lowerBound, last = night.upperBound
        var seen = SleepHabits.Night(dayOff: contexts[last].weekday >= 5)
        // A stillness begun before the evening (a phone on a table all afternoon) shows no bedtime.
        let start = contexts[first].stillStart
        if first > 0, !spans[first - 1].slot.isGap, !contexts[first - 1].isStay || spans[first - 1].slot.endsMoving == true,
           start >= Double(NightSplit.lateEvening * 60) || start < Double(NightSplit.earliestWakeUp * 60) {
            seen.start = start < Double(NightSplit.earliestWakeUp * 60) ? start + 1440 : start
            seen.atCharger = chargerJustBefore(first, spans)
            if contexts[first - 1].isStay, contexts[first - 1].kind == .home, !contexts[first - 1].isSleep {
                let before = contexts[contexts[first - 1].stillFirst].stillStart
                if before >= Double(NightSplit.eveningStart * 60) { seen.stillSince = before }
            }
        }
        if last + 1 < contexts.count, !spans[last + 1].slot.isGap, spans[last].slot.endsMoving == true || !contexts[last + 1].isStay {
            // Ended by going out (not by the charger): up a while before, getting ready.
            let leaving = spans[last].slot.endsAtCharger != true && leavesHome(after: last, contexts, spans)
            seen.end = (contexts[last].startMinute + contexts[last].minutes).truncatingRemainder(dividingBy: 1440) - (leaving ? gettingReady : 0)
        }
        return seen
    }

    /// A night ended by leaving home (the phone left still until then): the person was up this
    /// many minutes before, getting ready.
    static let gettingReady = 45.0
    /// Signs of movement an hour at home below which the phone is taken to lie on a table.
    static let quietSigns = 0.5
    /// Minutes awake at home that tell (`quietSigns`): five hours, which a first day's afternoon and
    /// evening at home give (the morning the data begins in is not yet known to be awake then).
    static let quietEvidence = 300.0
    /// With such a phone, a still evening gives way to the night at the usual bedtime unless it began
    /// less than this many minutes before it (the last sign before it says little of going to bed).
    static let quietBedtimeMargin = 30.0
    /// With a carried phone, the last walk is going to bed unless the stillness began at least
    /// this many minutes before the usual bedtime (the phone put down for the evening).
    static let carriedBedtimeMargin = 90.0
    /// The same for someone who keeps to a bedtime before working days (`SleepHabits.steadyBedtime`:
    /// a child's 21:00): they go to bed less far from it.
    static let steadyBedtimeMargin = 75.0
    /// How long before the usual bedtime a still evening must begin for it to give way to the night
    /// then, by what the phone shows at home (`phoneAtHome`).
    static func bedtimeMargin(_ usual: SleepHabits, quiet: Bool, carried: Bool) -> Double {
        quiet ? quietBedtimeMargin : carried ? max(usual.bedtimeMargin, usual.steadyBedtime ? steadyBedtimeMargin : carriedBedtimeMargin) : usual.bedtimeMargin
    }
    /// Minutes an adult's night lasts at most, for a night whose start the phone does not show.
    static let longestNightRest = 600.0
    /// A still morning ended by leaving home: the person was up at most this many minutes before.
    static let longestMorningIn = 120.0
    /// A walk up to this many minutes before the time such a person was up by is getting up.
    static let upBySign = 30.0

    /// Whether the movement after `index` leaves home: a trip out, or to a stay elsewhere.
    static func leavesHome(after index: Int, _ contexts: [SlotContext], _ spans: [SlotSpan]) -> Bool {
        movement(from: index, step: 1, contexts, spans)?.trip ?? false
    }

    /// The movement next to `index`, after it (`step` 1) or before it (-1), if any: the index it
    /// reaches (the stay, gap or end past it), and whether it is a trip to (or from) somewhere else,
    /// `tripOut` or longer or from (to) a stay away from home.
    static func movement(from index: Int, step: Int, _ contexts: [SlotContext], _ spans: [SlotSpan]) -> (reaches: Int, trip: Bool)? {
        var next = index + step, moving: Int64 = 0
        while contexts.indices.contains(next), !contexts[next].isStay, !spans[next].slot.isGap {
            moving += spans[next].duration
            next += step
        }
        guard next != index + step else { return nil }
        return (next, moving >= tripOut || (contexts.indices.contains(next) && !spans[next].slot.isGap && contexts[next].kind != .home))
    }

    /// Marks as awake the quarter hours of each night before the usual bedtime, when the
    /// stillness began well before it, and after the usual time of getting up, when it ends well
    /// after it (not with the data: the person may still be asleep). Well: by the habits' margins.
    /// Returns the habits, of working days and of days off.
    @discardableResult
    static func markSleepHabits(_ contexts: inout [SlotContext], _ spans: [SlotSpan]) -> [SleepHabits] {
        let nights = nights(contexts, spans)
        let nightsSeen = withoutNightWalks(nights.map { seen($0, contexts, spans) })
        let (quiet, carried) = phoneAtHome(contexts, spans)
        let habits = [false, true].map { SleepHabits(nightsSeen, dayOff: $0, share: carried ? SleepHabits.carriedShare : SleepHabits.share) }
        for night in nights {
            let first = night.lowerBound, last = night.upperBound, start = contexts[first].stillStart
            let usual = habits[contexts[last].weekday >= 5 ? 1 : 0]
            let bedtime = (usual.bedtime / 15).rounded() * 15, wakeUp = (usual.wakeUp / 15).rounded() * 15
            let evening = start < Double(NightSplit.earliestWakeUp * 60) ? start + 1440 : start
            let ending = (contexts[last].startMinute + contexts[last].minutes).truncatingRemainder(dividingBy: 1440)
            // The charger plugged in as the night began, or out as it ended: no habit overrides it.
            let pluggedIn = first > 0 && spans[first - 1].slot.endsAtCharger == true
            // A night the data begins in (or resumes in, after a gap) shows no evening before it.
            let evenings = first > 0 && !spans[first - 1].slot.isGap
            let unplugged = spans[last].slot.endsAtCharger == true
            // Ended by going out in the morning: the person was up before it (going out is no getting
            // up, so no margin), at most `longestMorningIn` before, at least `gettingReady`.
            let goingOut = !unplugged && Self.morning.contains(ending) && leavesHome(after: last, contexts, spans)
            let upAt = goingOut ? max(wakeUp, ending - Self.longestMorningIn) : wakeUp
            let margin = goingOut ? 0 : usual.wakeUpMargin
            // A phone that shows little puts the night at the usual bedtime, but no earlier than a long
            // night's rest before the morning drawn (seen ended by getting up or going out).
            var nightBedtime = bedtime
            if quiet, last + 1 < contexts.count, !spans[last + 1].slot.isGap {
                let up = goingOut ? min(ending - gettingReady, upAt) : (!unplugged && ending - wakeUp >= margin ? wakeUp : ending)
                nightBedtime = max(bedtime, ((up + 1440 - Self.longestNightRest) / 15).rounded(.down) * 15)
            }
            for member in night where contexts[member].isStay {
                let offset = Double(spans[member].start - spans[first].start) / 60_000
                let beforeBed = evenings && contexts[member].stillFirst == first && !pluggedIn && nightBedtime - evening >= bedtimeMargin(usual, quiet: quiet, carried: carried)
                    && evening + offset + contexts[member].minutes <= nightBedtime + 1
                // In the night's last stillness, a rest's length into the night.
                let lateInTheNight = contexts[member].stillFirst == contexts[last].stillFirst && offset >= Double(NightSplit.rest / 60_000)
                // Up from the usual hour until the usual bedtime, when the stillness goes on well past
                // that morning's usual hour (a stillness may hold a whole day and the next night).
                let risen = (upAt - 1..<max(upAt + 720, bedtime)).contains(contexts[member].startMinute)
                let pastUsual = contexts[member].startMinute - wakeUp + Double(spans[last].end - spans[member].start) / 60_000
                let afterRising = lateInTheNight && risen && !unplugged && pastUsual >= margin && last + 1 < contexts.count
                let readying = lateInTheNight && goingOut && Double(spans[last].end - spans[member].start) / 60_000 <= gettingReady
                // A walk a little before that: getting up, the phone then left on a table.
                let walkedUp = lateInTheNight && goingOut && member > first && spans[member - 1].slot.endsMoving == true
                    && (upAt - upBySign..<upAt).contains(contexts[member].startMinute)
                if beforeBed || afterRising || readying || walkedUp { (contexts[member].isSleep, contexts[member].isNightRest, contexts[member].isUp) = (false, false, true) }
            }
        }
        return habits
    }

    /// The bedtime of the nights marked so far for a night before a day off (`dayOff`) or a working
    /// day, when a night seen begun at the charger tells it (`SleepHabits.bedtimeAtCharger`).
    static func bedtimeSeenAtCharger(_ contexts: [SlotContext], _ spans: [SlotSpan], dayOff: Bool) -> Double? {
        let nightsSeen = withoutNightWalks(nights(contexts, spans).map { seen($0, contexts, spans) })
        let share = phoneAtHome(contexts, spans).carried ? SleepHabits.carriedShare : SleepHabits.share
        let habits = SleepHabits(nightsSeen, dayOff: dayOff, share: share)
        return habits.bedtimeAtCharger ? habits.bedtime : nil
    }

    /// `nights` with no bedtime where the walk that began them was one in the night (`SleepHabits.isNightWalk`)
    /// by the middle of the bedtimes seen: a bedtime of 23:50 from such a walk would leave the
    /// child's evenings up until then.
    static func withoutNightWalks(_ nights: [SleepHabits.Night]) -> [SleepHabits.Night] {
        let middle = [false, true].map { SleepHabits(nights, dayOff: $0, share: SleepHabits.carriedShare) }
        return nights.map { night in
            let usual = middle[night.dayOff ? 1 : 0]
            guard let since = night.stillSince, let start = night.start, usual.ownBedtime,
                  usual.isNightWalk(at: start, stillSince: since) else { return night }
            var clean = night
            clean.start = nil
            return clean
        }
    }

    /// Signs of movement an hour at home from which the phone is taken to be carried: getting up
    /// and walking about at least every 80 minutes or so (between them, the phone may be either).
    static let carriedSigns = 0.75

    /// What the phone shows of the person at home, over `quietEvidence` minutes or more awake there:
    /// little (`quiet`: fewer than `quietSigns` signs of movement an hour, left on a table), or
    /// much (`carried`: `carriedSigns` or more: getting up, walking about). Neither with less evidence.
    static func phoneAtHome(_ contexts: [SlotContext], _ spans: [SlotSpan]) -> (quiet: Bool, carried: Bool) {
        let (minutes, rate) = signsAtHome(contexts, spans)
        return (minutes >= quietEvidence && rate < quietSigns, minutes >= quietEvidence && rate >= carriedSigns)
    }

    /// Minutes awake at home, and signs of movement an hour over them.
    static func signsAtHome(_ contexts: [SlotContext], _ spans: [SlotSpan]) -> (minutes: Double, rate: Double) {
        var minutes = 0.0, signs = 0
        for index in contexts.indices where contexts[index].isStay && contexts[index].kind == .home && !contexts[index].isSleep
            && !spans[index].slot.isGap {
            minutes += contexts[index].minutes
            if spans[index].slot.endsMoving == true { signs += 1 }
        }
        return (minutes, minutes > 0 ? Double(signs) / (minutes / 60) : 0)
    }
}
