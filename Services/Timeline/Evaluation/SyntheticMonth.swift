import Foundation
import GuardianShared
import GuardianTimeline

/// A made-up person's motion and location events, with what they were really doing, for tests
/// and benchmarks. They live in Berlin and work 4 km away on weekdays (lunch out, running on
/// Tuesdays and Thursdays, sometimes a bar on Fridays), shop on Saturday morning and visit
/// their parents in the afternoon, ride a bike and walk in the park on Sundays. Times, durations
/// and choices vary from day to day; motion comes every 15–45 s (about 20,000 events a week)
/// with walking blips in long stays, stops in traffic and the odd `unknown`; location comes on
/// significant changes. Deterministic for a seed.
public struct SyntheticMonth: Sendable {
    /// What the person was doing from `start` until the next interval's start.
    public struct Interval: Sendable, Hashable {
        public var start: Int64
        public var category: TimelineCategory
    }

    public enum Place: String, Sendable, CaseIterable {
        case home, work, restaurant, supermarket, parents, bar, park

        public var location: GeoPoint {
            switch self {
            case .home: GeoPoint(lat: 52.5200, lon: 13.4050)
            case .work: GeoPoint(lat: 52.5450, lon: 13.3600)
            case .restaurant: GeoPoint(lat: 52.5470, lon: 13.3640)
            case .supermarket: GeoPoint(lat: 52.5160, lon: 13.4120)
            case .parents: GeoPoint(lat: 52.4200, lon: 13.2000)
            case .bar: GeoPoint(lat: 52.5000, lon: 13.4200)
            case .park: GeoPoint(lat: 52.5300, lon: 13.4300)
            }
        }
    }

    public let timeZone: TimeZone
    public let start: Int64
    public let end: Int64
    public let motion: [MotionEvent]
    public let locations: [LocationEvent]
    public let truth: [Interval]
    /// The instant each local day starts, and the end of the last.
    public let dayStarts: [Int64]

    /// `firstDay` is a local date `YYYY-MM-DD`; the events run from its midnight to `days` later.
    public init(
        firstDay: String = "2026-03-02", days: Int = 30, timeZone: TimeZone = TimeZone(identifier: "Europe/Berlin")!,
        seed: UInt64 = 42, spacing: ClosedRange<Int64> = 15_000...45_000
    ) {
        var plan = DayPlanner(firstDay: firstDay, timeZone: timeZone, seed: seed)
        for day in 0..<days { plan.live(day: day) }
        plan.stay(.sleep, at: .home, until: plan.local(day: days, hour: 0, minute: 0), blips: nil)

        self.timeZone = timeZone
        start = plan.local(day: 0, hour: 0, minute: 0)
        end = plan.cursor
        dayStarts = (0...days).map { plan.local(day: $0, hour: 0, minute: 0) }
        var emitter = Emitter(seed: seed &+ 1, spacing: spacing, home: Place.home.location)
        for block in plan.blocks { emitter.emit(block) }
        motion = emitter.motion
        locations = emitter.locations
        var truth: [Interval] = []
        for block in plan.blocks where truth.last?.category != block.category {
            truth.append(Interval(start: block.start, category: block.category))
        }
        self.truth = truth
    }

    /// What the person did for most of `[from, to)`.
    public func category(from: Int64, to: Int64) -> TimelineCategory {
        var time: [TimelineCategory: Int64] = [:]
        var index = max(truth.partitioningIndex { $0.start > from } - 1, 0)
        while index < truth.count, truth[index].start < to {
            let intervalEnd = index + 1 < truth.count ? truth[index + 1].start : end
            time[truth[index].category, default: 0] += max(0, min(intervalEnd, to) - max(truth[index].start, from))
            index += 1
        }
        return time.max { ($0.value, $1.key.rawValue) < ($1.value, $0.key.rawValue) }?.key ?? .unknown
    }

    /// The slots labelled with what the person did for most of each.
    public func labelled(_ spans: [SlotSpan]) -> [LabelledSlot] {
        spans.map { LabelledSlot($0, category: category(from: $0.start, to: $0.end)) }
    }
}

/// A piece of the person's life with one category and one kind of motion.
struct LifeBlock {
    enum Motion {
        case stay(SyntheticMonth.Place)
        case move(MotionActivity, from: GeoPoint, to: GeoPoint)
    }

    var start: Int64
    var end: Int64
    var category: TimelineCategory
    var motion: Motion
}

/// Builds the person's days as blocks, one after the other.
struct DayPlanner {
    typealias Place = SyntheticMonth.Place

    let days: LocalDays
    var random: SplitMix64
    var blocks: [LifeBlock] = []
    var cursor: Int64
    var place = Place.home

    init(firstDay: String, timeZone: TimeZone, seed: UInt64) {
        days = LocalDays(firstDay: firstDay, timeZone: timeZone)
        random = SplitMix64(seed: seed)
        cursor = 0
        cursor = local(day: 0, hour: 0, minute: 0)
    }

    /// The instant of a local time on the `day`-th day.
    func local(day: Int, hour: Int, minute: Double) -> Int64 { days.instant(day: day, hour: hour, minute: minute) }

    /// Free time at home until about `hour:minute`, then a meal of `length` minutes.
    mutating func meal(day: Int, _ hour: Int, _ minute: Double, jitter: Double, length: ClosedRange<Double>) {
        let time = around(day: day, hour, minute, jitter: jitter)
        if time > cursor + 10 * 60_000 { stay(.leisure, at: .home, until: time) }
        stay(.food, at: .home, until: cursor + Int64(minutes(length) * 60_000), blips: nil)
    }

    mutating func minutes(_ range: ClosedRange<Double>) -> Double {
        Double.random(in: range, using: &random)
    }

    mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &random) < probability
    }

    /// A local time on `day`, `jitter` minutes either way, never before `minimumGap` from now.
    mutating func around(day: Int, _ hour: Int, _ minute: Double, jitter: Double, minimumGap: Double = 5) -> Int64 {
        let target = local(day: day, hour: hour, minute: minute + minutes(-jitter...jitter))
        return max(target, cursor + Int64(minimumGap * 60_000))
    }

    mutating func append(_ category: TimelineCategory, _ motion: LifeBlock.Motion, minutes: Double) {
        let end = cursor + Int64(minutes * 60_000)
        blocks.append(LifeBlock(start: cursor, end: end, category: category, motion: motion))
        cursor = end
    }

    /// Stays at a place until `until`, getting up for a short walk every `blips` minutes; starts
    /// with a short walk (to the kitchen, the desk) after another stay.
    mutating func stay(_ category: TimelineCategory, at place: Place, until: Int64, blips: ClosedRange<Double>? = 50...130) {
        if case .stay = blocks.last?.motion {
            append(category, .move(.walking, from: place.location, to: place.location), minutes: minutes(1...2))
        }
        self.place = place
        while cursor < until {
            let next = blips.map { min(cursor + Int64(minutes($0) * 60_000), until) } ?? until
            append(category, .stay(place), minutes: Double(next - cursor) / 60_000)
            if next < until - 10 * 60_000 {
                append(category, .move(.walking, from: place.location, to: place.location), minutes: minutes(0.8...2))
            }
        }
    }

    /// Travels by `vehicle` with walks at both ends; cars and bikes stop at lights.
    mutating func travel(_ category: TimelineCategory, to destination: Place, by vehicle: MotionActivity, minutes range: ClosedRange<Double>) {
        let from = place.location, to = destination.location
        if vehicle != .walking { append(category, .move(.walking, from: from, to: from), minutes: minutes(2...4)) }
        let total = minutes(range)
        var done = 0.0
        while done < total {
            let leg = min(minutes(3...7), total - done)
            let a = interpolate(from, to, done / total), b = interpolate(from, to, (done + leg) / total)
            append(category, .move(vehicle, from: a, to: b), minutes: leg)
            done += leg
            if vehicle != .walking, done < total, chance(0.5) {
                append(category, .move(.stationary, from: b, to: b), minutes: minutes(0.5...1.5))
            }
        }
        if vehicle != .walking { append(category, .move(.walking, from: to, to: to), minutes: minutes(2...4)) }
        place = destination
    }

    /// A round trip from the current place (a run, a ride, a walk in the park).
    mutating func loop(_ category: TimelineCategory, _ activity: MotionActivity, minutes range: ClosedRange<Double>, pauses: Bool) {
        let centre = place.location, total = minutes(range)
        var done = 0.0
        while done < total {
            let leg = min(minutes(4...9), total - done)
            let a = circle(centre, done / total), b = circle(centre, (done + leg) / total)
            append(category, .move(activity, from: a, to: b), minutes: leg)
            done += leg
            if pauses, done < total, chance(0.4) {
                append(category, .move(.stationary, from: b, to: b), minutes: minutes(0.5...2))
            }
        }
    }

    /// Walking the aisles with pauses at the shelves.
    mutating func browse(_ category: TimelineCategory, at destination: Place, minutes range: ClosedRange<Double>) {
        let total = minutes(range), location = destination.location
        var done = 0.0
        while done < total {
            let walk = min(minutes(1...4), total - done)
            append(category, .move(.walking, from: location, to: location), minutes: walk)
            done += walk
            guard done < total else { break }
            let pause = min(minutes(0.5...2), total - done)
            append(category, .move(.stationary, from: location, to: location), minutes: pause)
            done += pause
        }
        place = destination
    }

    func interpolate(_ a: GeoPoint, _ b: GeoPoint, _ fraction: Double) -> GeoPoint {
        GeoPoint(lat: a.lat + (b.lat - a.lat) * fraction, lon: a.lon + (b.lon - a.lon) * fraction)
    }

    func circle(_ centre: GeoPoint, _ fraction: Double) -> GeoPoint {
        let angle = 2 * Double.pi * fraction
        return GeoPoint(lat: centre.lat + 0.012 * (1 - cos(angle)), lon: centre.lon + 0.02 * sin(angle))
    }

    mutating func live(day: Int) {
        let weekday = days.weekday(day)
        switch weekday {
        case 0..<5: workday(day, weekday: weekday)
        case 5: saturday(day)
        default: sunday(day)
        }
    }

    mutating func night(until wake: Int64) {
        if chance(0.3) {
            let bathroom = max(cursor + 60 * 60_000, wake - Int64(minutes(150...270) * 60_000))
            if bathroom < wake - 30 * 60_000 {
                stay(.sleep, at: .home, until: bathroom, blips: nil)
            }
        }
        stay(.sleep, at: .home, until: wake, blips: nil)
    }

    mutating func workday(_ day: Int, weekday: Int) {
        night(until: around(day: day, 6, 45, jitter: 20))
        stay(.food, at: .home, until: cursor + Int64(minutes(18...32) * 60_000), blips: nil)
        travel(.commute, to: .work, by: .automotive, minutes: 18...28)
        stay(.work, at: .work, until: around(day: day, 12, 30, jitter: 15))
        travel(.food, to: .restaurant, by: .walking, minutes: 4...6)
        stay(.food, at: .restaurant, until: cursor + Int64(minutes(30...45) * 60_000), blips: nil)
        travel(.food, to: .work, by: .walking, minutes: 4...6)
        stay(.work, at: .work, until: around(day: day, 17, 30, jitter: 20))
        travel(.commute, to: .home, by: .automotive, minutes: 20...32)
        if (weekday == 1 || weekday == 3) && chance(0.85) {
            stay(.leisure, at: .home, until: cursor + Int64(minutes(10...25) * 60_000), blips: nil)
            loop(.exercise, .running, minutes: 35...50, pauses: true)
        }
        meal(day: day, 19, 0, jitter: 20, length: 35...50)
        if weekday == 4 && chance(0.6) {
            stay(.leisure, at: .home, until: around(day: day, 20, 15, jitter: 15))
            travel(.commute, to: .bar, by: .cycling, minutes: 12...18)
            stay(.leisure, at: .bar, until: around(day: day, 23, 30, jitter: 30))
            travel(.commute, to: .home, by: .cycling, minutes: 12...18)
            stay(.leisure, at: .home, until: cursor + Int64(minutes(10...20) * 60_000), blips: nil)
        } else {
            stay(.leisure, at: .home, until: around(day: day, 23, 0, jitter: 20))
        }
    }

    mutating func saturday(_ day: Int) {
        night(until: around(day: day, 8, 30, jitter: 30))
        stay(.food, at: .home, until: cursor + Int64(minutes(30...45) * 60_000), blips: nil)
        stay(.leisure, at: .home, until: around(day: day, 10, 30, jitter: 20))
        travel(.commute, to: .supermarket, by: .walking, minutes: 8...12)
        browse(.shopping, at: .supermarket, minutes: 35...60)
        travel(.commute, to: .home, by: .walking, minutes: 8...12)
        meal(day: day, 12, 45, jitter: 15, length: 40...55)
        if chance(0.8) {
            travel(.commute, to: .parents, by: .automotive, minutes: 25...35)
            stay(.family, at: .parents, until: around(day: day, 18, 0, jitter: 30))
            travel(.commute, to: .home, by: .automotive, minutes: 25...35)
        } else {
            stay(.leisure, at: .home, until: around(day: day, 18, 30, jitter: 30))
        }
        meal(day: day, 19, 30, jitter: 20, length: 40...55)
        stay(.leisure, at: .home, until: around(day: day, 23, 30, jitter: 30))
    }

    mutating func sunday(_ day: Int) {
        night(until: around(day: day, 9, 0, jitter: 30))
        stay(.food, at: .home, until: cursor + Int64(minutes(40...55) * 60_000), blips: nil)
        if chance(0.8) {
            loop(.exercise, .cycling, minutes: 70...110, pauses: true)
        }
        meal(day: day, 12, 45, jitter: 15, length: 40...55)
        stay(.leisure, at: .home, until: around(day: day, 15, 0, jitter: 30))
        travel(.leisure, to: .park, by: .walking, minutes: 20...28)
        loop(.leisure, .walking, minutes: 40...70, pauses: false)
        travel(.leisure, to: .home, by: .walking, minutes: 20...28)
        meal(day: day, 19, 0, jitter: 20, length: 40...55)
        stay(.leisure, at: .home, until: around(day: day, 22, 30, jitter: 20))
    }
}

/// Turns blocks into motion events every few seconds and location fixes on significant moves.
struct Emitter {
    var random: SplitMix64
    var spacing: ClosedRange<Int64>
    var motion: [MotionEvent] = []
    var locations: [LocationEvent] = []
    var lastFix: GeoPoint

    init(seed: UInt64, spacing: ClosedRange<Int64>, home: GeoPoint) {
        random = SplitMix64(seed: seed)
        self.spacing = spacing
        lastFix = home
    }

    mutating func emit(_ block: LifeBlock) {
        if locations.isEmpty { locations.append(LocationEvent(timestamp: block.start, location: lastFix)) }
        let activity: MotionActivity
        switch block.motion {
        case .stay(let place):
            activity = .stationary
            if place.location.distance(to: lastFix) > 200 {
                fix(at: min(block.start + Int64.random(in: 30_000...150_000, using: &random), block.end), place.location)
            }
        case .move(let moving, let from, let to):
            activity = moving
            for (fraction, point) in from.waypoints(to: to, every: 600) {
                fix(at: block.start + Int64(Double(block.end - block.start) * fraction), point)
            }
        }
        var time = block.start
        while time < block.end {
            motion.append(MotionEvent(timestamp: time, activity: Double.random(in: 0..<1, using: &random) < 0.01 ? .unknown : activity))
            time += Int64.random(in: spacing, using: &random)
        }
    }

    mutating func fix(at time: Int64, _ point: GeoPoint) {
        let jittered = GeoPoint(
            lat: point.lat + Double.random(in: -0.0003...0.0003, using: &random),
            lon: point.lon + Double.random(in: -0.0004...0.0004, using: &random))
        locations.append(LocationEvent(timestamp: time, location: jittered))
        lastFix = point
    }
}
