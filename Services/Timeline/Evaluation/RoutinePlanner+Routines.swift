import GuardianTimeline

/// Each routine's days. A day's plan runs from where the previous one stopped (in bed, or at
/// work through midnight for a night worker) to late evening.
extension RoutinePlanner {
    mutating func live(day: Int) {
        let weekday = weekday(day)
        switch person.routine {
        case .officeWorker: weekday < 5 ? officeDay(day, weekday: weekday) : dayOff(day, weekday: weekday)
        case .schoolChild: weekday < 5 ? schoolDay(day, weekday: weekday) : dayOff(day, weekday: weekday)
        case .nightWorker: weekday < 4 ? shiftDay(day) : (weekday == 4 ? afterShifts(day) : dayOff(day, weekday: weekday))
        case .homeWorker: weekday < 5 ? homeWorkDay(day, weekday: weekday) : dayOff(day, weekday: weekday)
        case .retiree: weekday < 6 ? retireeDay(day, weekday: weekday) : dayOff(day, weekday: weekday)
        case .student: weekday < 5 ? studentDay(day, weekday: weekday) : dayOff(day, weekday: weekday)
        case .schoolRunParent: weekday < 5 ? schoolRunDay(day, weekday: weekday) : dayOff(day, weekday: weekday)
        case .shiftWorker: rotatingShiftDay(day, weekday: weekday)
        case .traveller:
            switch day {
            case 8: flyOut(day)
            case 9: awayDay(day)
            case 10: flyBack(day)
            default: weekday < 5 ? officeDay(day, weekday: weekday) : dayOff(day, weekday: weekday)
            }
        }
    }

    mutating func officeDay(_ day: Int, weekday: Int) {
        sleep(until: around(day, 6, 45, jitter: 20))
        stay(.food, at: .home, until: later(18...30), blips: nil)
        travel(.commute, to: .work, by: .automotive, minutes: 18...30)
        stay(.work, at: .work, until: around(day, 12, 30, jitter: 15))
        travel(.commute, to: .lunch, by: .walking, minutes: 4...6)
        stay(.food, at: .lunch, until: later(30...45), blips: nil)
        travel(.commute, to: .work, by: .walking, minutes: 4...6)
        stay(.work, at: .work, until: around(day, 17, 30, jitter: 20))
        travel(.commute, to: .home, by: .automotive, minutes: 20...32)
        if (weekday == 1 || weekday == 3) && chance(0.85) {
            stay(.leisure, at: .home, until: later(10...25), blips: nil)
            loop(.exercise, .running, minutes: 35...50, pauses: true)
        }
        meal(day, 19, 15)
        if weekday == 4 && chance(0.7) {
            // Out to a bar, home by bike after midnight.
            stay(.leisure, at: .home, until: around(day, 20, 30, jitter: 15))
            travel(.commute, to: .bar, by: .cycling, minutes: 12...18)
            stay(.leisure, at: .bar, until: around(day, 23, 50, jitter: 10))
            travel(.commute, to: .home, by: .cycling, minutes: 12...18)
            stay(.leisure, at: .home, until: later(10...20), blips: nil)
        } else {
            stay(.leisure, at: .home, until: around(day, 23, 0, jitter: 20))
        }
    }

    mutating func schoolDay(_ day: Int, weekday: Int) {
        sleep(until: around(day, 7, 0, jitter: 10))
        stay(.food, at: .home, until: later(15...25), blips: nil)
        travel(.commute, to: .work, by: .walking, minutes: 10...16)
        stay(.work, at: .work, until: around(day, 12, 15, jitter: 10))
        stay(.food, at: .work, until: later(30...40), blips: nil)
        stay(.work, at: .work, until: around(day, 15, 30, jitter: 15))
        travel(.commute, to: .home, by: .walking, minutes: 10...16)
        if weekday == 2 {
            stay(.leisure, at: .home, until: around(day, 16, 45, jitter: 10))
            travel(.commute, to: .pitch, by: .cycling, minutes: 8...12)
            loop(.exercise, .running, minutes: 60...80, pauses: true)
            travel(.commute, to: .home, by: .cycling, minutes: 8...12)
        }
        meal(day, 18, 30, jitter: 15)
        stay(.leisure, at: .home, until: around(day, 20, 45, jitter: 15))
    }

    /// A night worker's working day: home from the night shift, rest by day, back to work at night.
    mutating func shiftDay(_ day: Int) {
        if place == .work {
            finishShift(day)
            sleep(until: around(day, 14, 30, jitter: 30))
        } else {
            sleep(until: around(day, 9, 0, jitter: 30))
            stay(.food, at: .home, until: later(25...40), blips: nil)
            stay(.leisure, at: .home, until: around(day, 11, 30, jitter: 30))
            if chance(0.6) {
                travel(.commute, to: .supermarket, by: .walking, minutes: 8...12)
                browse(at: .supermarket, minutes: 25...45)
                travel(.commute, to: .home, by: .walking, minutes: 8...12)
            }
            meal(day, 13, 0)
            stay(.sleep, at: .home, until: around(day, 17, 0, jitter: 20), blips: nil)
        }
        meal(day, 18, 0)
        stay(.leisure, at: .home, until: around(day, 21, 10, jitter: 10))
        travel(.commute, to: .work, by: .automotive, minutes: 20...30)
        stay(.work, at: .work, until: local(day: day + 1, hour: 2, minute: minutes(-20...20)))
        stay(.food, at: .work, until: later(25...35), blips: nil)
    }

    /// Home from the night shift and back to sleeping at night.
    mutating func finishShift(_ day: Int) {
        stay(.work, at: .work, until: around(day, 6, 30, jitter: 10))
        travel(.commute, to: .home, by: .automotive, minutes: 20...30)
        stay(.food, at: .home, until: later(15...25), blips: nil)
    }

    mutating func afterShifts(_ day: Int) {
        if place == .work {
            finishShift(day)
            sleep(until: around(day, 12, 30, jitter: 30))
        }
        meal(day, 13, 30)
        afternoonOut(day)
        meal(day, 19, 30)
        stay(.leisure, at: .home, until: around(day, 23, 15, jitter: 20))
    }

    mutating func dayOff(_ day: Int, weekday: Int) {
        if place == .work { return afterShifts(day) }
        sleep(until: around(day, 8, 45, jitter: 40))
        stay(.food, at: .home, until: later(30...45), blips: nil)
        stay(.leisure, at: .home, until: around(day, 10, 30, jitter: 20))
        if weekday == 5 || chance(0.3) {
            travel(.commute, to: .supermarket, by: .walking, minutes: 8...12)
            browse(at: .supermarket, minutes: 30...55)
            travel(.commute, to: .home, by: .walking, minutes: 8...12)
        } else if person.routine != .schoolChild && chance(0.7) {
            loop(.exercise, .cycling, minutes: 60...100, pauses: true)
        }
        meal(day, 13, 0, jitter: 15)
        afternoonOut(day)
        meal(day, 19, 15)
        stay(.leisure, at: .home, until: around(day, person.routine == .schoolChild ? 21 : 23, 15, jitter: 20))
    }

    /// Family by car, or a walk in the park.
    mutating func afternoonOut(_ day: Int) {
        if chance(0.55) {
            stay(.leisure, at: .home, until: around(day, 14, 30, jitter: 20))
            travel(.commute, to: .family, by: .automotive, minutes: 25...35)
            stay(.family, at: .family, until: around(day, 18, 0, jitter: 30))
            travel(.commute, to: .home, by: .automotive, minutes: 25...35)
        } else {
            stay(.leisure, at: .home, until: around(day, 15, 0, jitter: 30))
            travel(.leisure, to: .park, by: .walking, minutes: 18...25)
            loop(.leisure, .walking, minutes: 40...70, pauses: false)
            travel(.leisure, to: .home, by: .walking, minutes: 18...25)
        }
    }

    /// Works at the kitchen table or a desk at home; the gym some evenings.
    mutating func homeWorkDay(_ day: Int, weekday: Int) {
        sleep(until: around(day, 7, 15, jitter: 20))
        stay(.food, at: .home, until: later(20...30), blips: nil)
        stay(.leisure, at: .home, until: around(day, 8, 45, jitter: 15))
        stay(.work, at: .home, until: around(day, 12, 30, jitter: 15))
        stay(.food, at: .home, until: later(25...40), blips: nil)
        if chance(0.4) {
            travel(.leisure, to: .park, by: .walking, minutes: 18...25)
            travel(.leisure, to: .home, by: .walking, minutes: 18...25)
        }
        stay(.work, at: .home, until: around(day, 17, 15, jitter: 20))
        if weekday == 0 || weekday == 2 {
            stay(.leisure, at: .home, until: around(day, 17, 45, jitter: 10))
            travel(.commute, to: .gym, by: .cycling, minutes: 8...14)
            workout(at: .gym, minutes: 55...75)
            travel(.commute, to: .home, by: .cycling, minutes: 8...14)
        }
        meal(day, 19, 15)
        stay(.leisure, at: .home, until: around(day, 23, 0, jitter: 20))
    }

    /// Exercise at a place: walking between machines and resting on them, changing before and after.
    mutating func workout(at place: Place, minutes range: ClosedRange<Double>) {
        let location = person[place], end = later(range)
        self.place = place
        while cursor < end {
            append(.exercise, .move(.walking, from: location, to: location), until: min(later(1...3), end))
            append(.exercise, .stay(location), until: min(later(3...9), end))
        }
    }

    mutating func retireeDay(_ day: Int, weekday: Int) {
        sleep(until: around(day, 7, 30, jitter: 30))
        stay(.food, at: .home, until: later(30...45), blips: nil)
        stay(.leisure, at: .home, until: around(day, 9, 45, jitter: 20))
        if chance(0.5) {
            travel(.leisure, to: .park, by: .walking, minutes: 18...25)
            loop(.leisure, .walking, minutes: 30...60, pauses: true)
            travel(.leisure, to: .home, by: .walking, minutes: 18...25)
        } else {
            travel(.commute, to: .supermarket, by: .walking, minutes: 8...12)
            browse(at: .supermarket, minutes: 20...40)
            travel(.commute, to: .home, by: .walking, minutes: 8...12)
        }
        meal(day, 12, 15, jitter: 15)
        if chance(0.5) { stay(.sleep, at: .home, until: later(40...70), blips: nil) }  // a nap
        if weekday == 2 {
            travel(.commute, to: .family, by: .automotive, minutes: 25...35)
            stay(.family, at: .family, until: around(day, 17, 30, jitter: 30))
            travel(.commute, to: .home, by: .automotive, minutes: 25...35)
        } else if weekday == 1 || weekday == 3 {
            stay(.leisure, at: .home, until: around(day, 15, 0, jitter: 20))
            travel(.commute, to: .bar, by: .automotive, minutes: 10...15)
            stay(.leisure, at: .bar, until: later(60...100), blips: nil)
            travel(.commute, to: .home, by: .automotive, minutes: 10...15)
        }
        meal(day, 18, 30, jitter: 15)
        stay(.leisure, at: .home, until: around(day, 22, 15, jitter: 20))
    }

    /// Lectures at different hours each day, lunch in the canteen on long days, up late.
    mutating func studentDay(_ day: Int, weekday: Int) {
        let late = minutes(0...150)
        sleep(until: around(day, 8, late, jitter: 10))
        stay(.food, at: .home, until: later(15...30), blips: nil)
        if weekday < 4 {
            let hour = Int(minutes(0...4).rounded())
            let start = max(cursor + 30 * 60_000, local(day: day, hour: 9 + hour, minute: 0))
            stay(.leisure, at: .home, until: start - Int64(25 * 60_000))
            travel(.commute, to: .work, by: .cycling, minutes: 15...22)
            let hours = minutes(2...6)
            if hours >= 4 {
                let lunch = max(around(day, 12, 15, jitter: 15), later(60...90))
                stay(.work, at: .work, until: lunch)
                travel(.commute, to: .lunch, by: .walking, minutes: 3...5)
                stay(.food, at: .lunch, until: later(25...40), blips: nil)
                travel(.commute, to: .work, by: .walking, minutes: 3...5)
                stay(.work, at: .work, until: start + Int64((hours + 0.7) * 60 * 60_000))
            } else {
                stay(.work, at: .work, until: start + Int64(hours * 60 * 60_000))
            }
            travel(.commute, to: .home, by: .cycling, minutes: 15...22)
        }
        meal(day, 19, 30, jitter: 45)
        if weekday == 3 {
            stay(.leisure, at: .home, until: around(day, 21, 30, jitter: 20))
            travel(.commute, to: .bar, by: .cycling, minutes: 12...18)
            let home = minutes(0...60)
            stay(.leisure, at: .bar, until: local(day: day + 1, hour: 1, minute: home))
            travel(.commute, to: .home, by: .cycling, minutes: 12...18)
        } else {
            let bed = minutes(0...90)
            stay(.leisure, at: .home, until: local(day: day + 1, hour: 0, minute: bed))
        }
    }

    /// A child to school by car, part-time work, the child picked up and to football on Tuesdays.
    mutating func schoolRunDay(_ day: Int, weekday: Int) {
        sleep(until: around(day, 6, 50, jitter: 15))
        stay(.food, at: .home, until: later(25...35), blips: nil)
        stay(.leisure, at: .home, until: around(day, 7, 40, jitter: 5))  // getting the child ready
        travel(.commute, to: .school, by: .automotive, minutes: 6...10)
        stay(.commute, at: .school, until: later(4...9), blips: nil)  // dropping the child off
        travel(.commute, to: .work, by: .automotive, minutes: 15...25)
        stay(.work, at: .work, until: around(day, 14, 15, jitter: 10))
        travel(.commute, to: .school, by: .automotive, minutes: 15...25)
        stay(.commute, at: .school, until: later(5...15), blips: nil)  // waiting at the gate
        travel(.commute, to: .home, by: .automotive, minutes: 6...10)
        meal(day, 15, 30, jitter: 10)
        if weekday == 1 {
            stay(.leisure, at: .home, until: around(day, 16, 40, jitter: 10))
            travel(.commute, to: .pitch, by: .automotive, minutes: 8...12)
            stay(.family, at: .pitch, until: later(60...80))  // watching the training
            travel(.commute, to: .home, by: .automotive, minutes: 8...12)
        }
        meal(day, 18, 45, jitter: 15)
        stay(.leisure, at: .home, until: around(day, 23, 0, jitter: 20))
    }

    /// Shifts rotate each week: early, late, then nights (Monday to Friday); weekends off.
    mutating func rotatingShiftDay(_ day: Int, weekday: Int) {
        guard weekday < 5 else { return dayOff(day, weekday: weekday) }
        switch ((day - weekday + 7) / 7 + 2) % 3 {
        case 0:
            sleep(until: around(day, 4, 50, jitter: 10))
            stay(.food, at: .home, until: later(15...20), blips: nil)
            travel(.commute, to: .work, by: .automotive, minutes: 20...30)
            stay(.work, at: .work, until: around(day, 10, 0, jitter: 10))
            stay(.food, at: .work, until: later(25...35), blips: nil)
            stay(.work, at: .work, until: around(day, 14, 0, jitter: 5))
            travel(.commute, to: .home, by: .automotive, minutes: 20...30)
            if chance(0.5) { stay(.sleep, at: .home, until: later(60...90), blips: nil) }  // a nap after an early shift
            meal(day, 18, 30)
            stay(.leisure, at: .home, until: around(day, 21, 30, jitter: 15))
        case 1:
            sleep(until: around(day, 8, 30, jitter: 30))
            stay(.food, at: .home, until: later(25...35), blips: nil)
            stay(.leisure, at: .home, until: around(day, 11, 45, jitter: 20))
            meal(day, 12, 15, jitter: 10)
            travel(.commute, to: .work, by: .automotive, minutes: 20...30)
            stay(.work, at: .work, until: around(day, 18, 0, jitter: 10))
            stay(.food, at: .work, until: later(25...35), blips: nil)
            stay(.work, at: .work, until: around(day, 22, 0, jitter: 5))
            travel(.commute, to: .home, by: .automotive, minutes: 20...30)
            stay(.leisure, at: .home, until: later(40...70))
        default:
            if place == .work {
                finishShift(day)
                sleep(until: around(day, 14, 0, jitter: 30))
            } else {
                sleep(until: around(day, 9, 0, jitter: 30))  // before the first night shift
                stay(.food, at: .home, until: later(25...35), blips: nil)
                stay(.leisure, at: .home, until: around(day, 13, 0, jitter: 30))
                stay(.sleep, at: .home, until: around(day, 17, 0, jitter: 20), blips: nil)
            }
            meal(day, 18, 0)
            stay(.leisure, at: .home, until: around(day, 21, 15, jitter: 10))
            travel(.commute, to: .work, by: .automotive, minutes: 20...30)
            stay(.work, at: .work, until: local(day: day + 1, hour: 2, minute: minutes(-20...20)))
            stay(.food, at: .work, until: later(25...35), blips: nil)
        }
    }

    /// The morning flight to London (the clock there is an hour behind: `hour + 1` here).
    mutating func flyOut(_ day: Int) {
        sleep(until: around(day, 5, 15, jitter: 10))
        stay(.food, at: .home, until: later(15...20), blips: nil)
        travel(.commute, to: .airport, by: .automotive, minutes: 30...40)
        stay(.commute, at: .airport, until: later(60...80))
        travel(.commute, to: .awayAirport, by: .automotive, minutes: 110...120)
        stay(.commute, at: .awayAirport, until: later(20...30), blips: nil)
        travel(.commute, to: .awayOffice, by: .automotive, minutes: 45...60)
        awayWork(day)
    }

    /// A working day in London: hotel nights, a client's office, dinner out.
    mutating func awayDay(_ day: Int) {
        sleep(at: .hotel, until: around(day, 8, 0, jitter: 15))
        stay(.food, at: .hotel, until: later(25...35), blips: nil)
        travel(.commute, to: .awayOffice, by: .walking, minutes: 20...30)
        awayWork(day)
    }

    /// Work at the client's office to about 17:30 London time, dinner, the hotel.
    mutating func awayWork(_ day: Int) {
        stay(.work, at: .awayOffice, until: around(day, 18, 30, jitter: 15))
        travel(.commute, to: .hotel, by: .walking, minutes: 20...30)
        stay(.leisure, at: .hotel, until: around(day, 20, 0, jitter: 15))
        stay(.food, at: .hotel, until: later(45...70), blips: nil)
        stay(.leisure, at: .hotel, until: around(day, 24, 0, jitter: 20))
    }

    /// Work in London in the morning, the flight home in the afternoon.
    mutating func flyBack(_ day: Int) {
        sleep(at: .hotel, until: around(day, 8, 0, jitter: 15))
        stay(.food, at: .hotel, until: later(25...35), blips: nil)
        travel(.commute, to: .awayOffice, by: .walking, minutes: 20...30)
        stay(.work, at: .awayOffice, until: around(day, 13, 30, jitter: 15))
        travel(.commute, to: .awayAirport, by: .automotive, minutes: 45...60)
        stay(.commute, at: .awayAirport, until: later(60...80))
        travel(.commute, to: .airport, by: .automotive, minutes: 105...115)
        travel(.commute, to: .home, by: .automotive, minutes: 30...40)
        meal(day, 20, 30, jitter: 15)
        stay(.leisure, at: .home, until: around(day, 23, 15, jitter: 20))
    }
}
