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
}
