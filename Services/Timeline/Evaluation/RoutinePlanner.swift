import Foundation
import GuardianTimeline

/// A piece of a person's life with one category and one kind of motion; `phoneOff` pieces
/// produce no events (a day without data).
struct LifePiece: Sendable, Hashable {
    enum Motion: Sendable, Hashable {
        case stay(GeoPoint)
        case move(MotionActivity, from: GeoPoint, to: GeoPoint)
    }

    var start: Int64
    var end: Int64
    var category: TimelineCategory
    var motion: Motion
    var phoneOff = false
}

/// Lays out a person's days as pieces, one after the other, in local time.
struct RoutinePlanner {
    typealias Place = SyntheticPerson.Place

    let person: SyntheticPerson
    let days: LocalDays
    var random: SplitMix64
    var pieces: [LifePiece] = []
    var cursor: Int64 = 0
    var place = Place.home
    var phoneOff = false

    init(person: SyntheticPerson, firstDay: String, timeZone: TimeZone, seed: UInt64) {
        self.person = person
        days = LocalDays(firstDay: firstDay, timeZone: timeZone)
        random = SplitMix64(seed: seed)
        cursor = local(day: 0, hour: 0, minute: 0)
    }

    /// The instant of a local time on the `day`-th day (minutes may run past midnight).
    func local(day: Int, hour: Int, minute: Double) -> Int64 { days.instant(day: day, hour: hour, minute: minute) }

    /// 0 = Monday … 6 = Sunday.
    func weekday(_ day: Int) -> Int { days.weekday(day) }

    mutating func minutes(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &random) }

    mutating func chance(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &random) < probability }

    /// A local time on `day`, `jitter` minutes either way, at least five minutes from now.
    mutating func around(_ day: Int, _ hour: Int, _ minute: Double, jitter: Double) -> Int64 {
        max(local(day: day, hour: hour, minute: minute + minutes(-jitter...jitter)), cursor + 5 * 60_000)
    }

    mutating func later(_ range: ClosedRange<Double>) -> Int64 { cursor + Int64(minutes(range) * 60_000) }

    mutating func append(_ category: TimelineCategory, _ motion: LifePiece.Motion, until end: Int64) {
        guard end > cursor else { return }
        pieces.append(LifePiece(start: cursor, end: end, category: category, motion: motion, phoneOff: phoneOff))
        cursor = end
    }

    /// Stays at `place` until `until`, getting up for a short walk every so often (`blips`);
    /// a stay after another stay starts with a short walk (to the kitchen, the desk).
    mutating func stay(_ category: TimelineCategory, at place: Place, until: Int64, blips: ClosedRange<Double>? = 50...130) {
        let location = person[place]
        let unseen = person.leavesPhoneDown && place == .home
        // Drawn whether or not the phone shows every walk, so that the days are the same either way.
        func walk() -> LifePiece.Motion {
            unseen && chance(0.7) && !person.showsEveryWalk ? .stay(location) : .move(.walking, from: location, to: location)
        }
        if case .stay = pieces.last?.motion {
            append(category, walk(), until: later(1...2))
        }
        self.place = place
        while cursor < until {
            let next = blips.map { min(later($0), until) } ?? until
            append(category, .stay(location), until: next)
            if next < until - 10 * 60_000 {
                append(category, walk(), until: later(0.8...2))
            }
        }
    }

    /// A night at home (or `place`) until `wake`, sometimes broken by a short walk (the bathroom).
    mutating func sleep(at place: Place = .home, until wake: Int64) {
        if chance(0.35) {
            let bathroom = wake - Int64(minutes(120...240) * 60_000)
            if bathroom > cursor + 60 * 60_000 { stay(.sleep, at: place, until: bathroom, blips: nil) }
        }
        stay(.sleep, at: place, until: wake, blips: nil)
    }

    /// Travels by `vehicle`, with walks to and from it; cars and bikes stop at lights.
    mutating func travel(_ category: TimelineCategory, to destination: Place, by vehicle: MotionActivity, minutes range: ClosedRange<Double>) {
        let from = person[place], to = person[destination]
        if vehicle != .walking { append(category, .move(.walking, from: from, to: from), until: later(2...4)) }
        let total = minutes(range)
        var done = 0.0
        while done < total {
            let leg = min(minutes(3...7), total - done)
            let a = interpolate(from, to, done / total), b = interpolate(from, to, (done + leg) / total)
            append(category, .move(vehicle, from: a, to: b), until: cursor + Int64(leg * 60_000))
            done += leg
            if vehicle != .walking, done < total, chance(0.5) {
                append(category, .move(.stationary, from: b, to: b), until: later(0.5...1.5))
            }
        }
        if vehicle != .walking { append(category, .move(.walking, from: to, to: to), until: later(2...4)) }
        place = destination
    }

    /// A round trip from the current place (a run, a ride, a walk in the park).
    mutating func loop(_ category: TimelineCategory, _ activity: MotionActivity, minutes range: ClosedRange<Double>, pauses: Bool) {
        let centre = person[place], total = minutes(range)
        var done = 0.0
        while done < total {
            let leg = min(minutes(4...9), total - done)
            let a = circle(centre, done / total), b = circle(centre, (done + leg) / total)
            append(category, .move(activity, from: a, to: b), until: cursor + Int64(leg * 60_000))
            done += leg
            if pauses, done < total, chance(0.4) { append(category, .move(.stationary, from: b, to: b), until: later(0.5...2)) }
        }
    }

    /// Walking the aisles with pauses at the shelves.
    mutating func browse(at destination: Place, minutes range: ClosedRange<Double>) {
        let location = person[destination], end = later(range)
        while cursor < end {
            append(.shopping, .move(.walking, from: location, to: location), until: min(later(1...4), end))
            append(.shopping, .move(.stationary, from: location, to: location), until: min(later(0.5...2), end))
        }
        place = destination
    }

    /// Free time at home until about `hour:minute`, then a meal at home.
    mutating func meal(_ day: Int, _ hour: Int, _ minute: Double, jitter: Double = 20) {
        let time = around(day, hour, minute, jitter: jitter)
        if time > cursor + 10 * 60_000 { stay(.leisure, at: .home, until: time) }
        stay(.food, at: .home, until: later(25...45), blips: nil)
    }

    /// For a person who charges overnight, the phone on its charger from going to bed at home
    /// (for three hours or more: a night, or a day's sleep after a night shift) to getting up, as
    /// `state` events would say.
    var charges: [ChargeEvent] {
        guard person.chargesOvernight else { return [] }
        var charges: [ChargeEvent] = []
        var index = 0
        while index < pieces.count {
            guard pieces[index].category == .sleep else {
                index += 1
                continue
            }
            var last = index
            while last + 1 < pieces.count, pieces[last + 1].category == .sleep { last += 1 }
            // Going to bed at home (with a walk to bed or not) for three hours or more, at night or
            // by day after a night shift, the phone on; not a nap.
            let atHome = pieces[index...last].contains { $0.motion == .stay(person[.home]) }
            if atHome, !pieces[index].phoneOff, pieces[last].end - pieces[index].start >= 3 * 60 * 60_000 {
                charges += [ChargeEvent(timestamp: pieces[index].start, charging: true), ChargeEvent(timestamp: pieces[last].end, charging: false)]
            }
            index = last + 1
        }
        return charges
    }

    func interpolate(_ a: GeoPoint, _ b: GeoPoint, _ fraction: Double) -> GeoPoint {
        GeoPoint(lat: a.lat + (b.lat - a.lat) * fraction, lon: a.lon + (b.lon - a.lon) * fraction)
    }

    func circle(_ centre: GeoPoint, _ fraction: Double) -> GeoPoint {
        let angle = 2 * Double.pi * fraction
        return centre.moved(east: 1_400 * sin(angle), north: 1_000 * (1 - cos(angle)))
    }
}
