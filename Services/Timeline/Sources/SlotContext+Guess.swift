/// What most people's slots are, read from context rather than the clock: a long rest at home
/// is sleep whenever it happens, a long stay at work is work at any hour, driving is getting
/// somewhere. The clock only separates meals from free time, as the standard day does.
extension SlotContext {
    /// The guess and how sure it is; `nil` when context says nothing (the classifier decides).
    var guess: (category: TimelineCategory, confidence: Double)? {
        switch activity {
        case .stationary: stayGuess
        case .automotive: (.commute, 0.9)
        case .running: (.exercise, 0.9)
        case .cycling:
            // A long ride from home back home is a ride out; otherwise it gets somewhere.
            minutes >= 40 && placeBefore != nil && placeBefore == placeAfter ? (.exercise, 0.8) : (.commute, 0.8)
        case .walking:
            if isWorkout || isRunningAbout { (.exercise, 0.7) }  // to the next machine, about a pitch
            else if isAboutOnePlace { (.shopping, 0.7) }  // the aisles of a shop
            else if isOutingOnFoot || isWalkOut { (.leisure, 0.7) }  // a walk in a park, a stroll
            else if minutes < 15 && [previous, next].contains(where: { $0?.activity == .running }) { (.exercise, 0.7) }  // warming up, cooling down
            else if minutes < 30 { (.commute, 0.8) } else { (.leisure, 0.7) }  // a walk
        case .unknown: nil
        }
    }

    var stayGuess: (category: TimelineCategory, confidence: Double)? {
        switch kind {
        case .home: homeGuess
        case .work: isBreak ? (.food, 0.7) : (.work, 0.9)
        case .other, .unknown:
            if isSleep { (.sleep, 0.8) }  // a night away
            else if minutes <= 60 && previous?.endsANight == true { (.food, 0.7) }  // breakfast there
            else if isMealTime { (.food, 0.6) }  // a meal on a night away
            else if isWorkout { (.exercise, 0.7) }
            else if isOutingOnFoot || isWalkOut { (.leisure, 0.6) }  // a bench in a park
            else if visitMinutes < 15, [previous, next].contains(where: { $0?.isAboutOnePlace == true }) { (.shopping, 0.7) }  // at the till
            else if visitMinutes < 15, previous.map({ $0.activity != .stationary }) == true, next.map({ $0.activity != .stationary }) == true {
                (.commute, 0.7)  // a stop on the way
            } else if visitMinutes < Self.longestWait, previous?.activity == .automotive, next?.activity == .automotive {
                (.commute, 0.7)  // driven to and on: waiting for someone (at a school gate), dropping them off
            } else if isTransfer { (.commute, 0.7) }
            else if weekday < 5, visitMinutes >= Double(DevicePlaces.workingDay / 60_000), (5 * 60...12 * 60).contains(visitStart) {
                (.work, 0.6)  // a working (or school) day away, begun in the morning
            } else if (20...80).contains(visitMinutes), isMidday, weekday < 5 { (.food, 0.7) }
            else if isNearWork { (.work, 0.6) }  // another building, between stays at work
            else if visitMinutes >= 90, (11 * 60...18 * 60).contains(localMiddle) { (.family, 0.6) }
            else if startMinute >= 18 * 60 || startMinute < 3 * 60 { (.leisure, 0.6) }
            else if visitMinutes < Double(DevicePlaces.workingDay / 60_000) { (.leisure, 0.5) }  // an hour or two out
            else { nil }
        }
    }

    /// A stay elsewhere driven to and driven on within this many minutes is a wait on the way.
    static let longestWait = 25.0

    var homeGuess: (category: TimelineCategory, confidence: Double) {
        if isSleep { return (.sleep, stillMinutes >= Self.rest ? 0.9 : 0.7) }
        // Breakfast after a night's rest (not a nap), a bite on coming home from a night shift before one, a meal at a meal time.
        if minutes <= 60 && previous?.endsANight == true || isBreakfast { return (.food, 0.8) }
        if minutes <= 45 && next?.isSleep == true && previous.map({ $0.activity != .stationary }) == true && isMorning { return (.food, 0.7) }
        if isMealTime { return (.food, 0.6) }
        if isWorkAtHome { return (.work, 0.7) }
        return (.leisure, 0.7)
    }

    var localMiddle: Double { middle.truncatingRemainder(dividingBy: 1440) }
    var isNight: Bool { localMiddle < 5 * 60 }
    /// Begun in the `morning`: home from a night shift, a bite before bed is breakfast.
    var isMorning: Bool { Self.morning.contains(startMinute.truncatingRemainder(dividingBy: 1440)) }
    var isMidday: Bool { (11 * 60...14 * 60 + 30).contains(localMiddle) }
}
