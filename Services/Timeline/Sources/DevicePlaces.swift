import Foundation

/// The places a device stays at, learned from its slots: stays clustered by location. Home is
/// where it spends most time of the places it sleeps at (lies still `sleepLength` or more at
/// once), so a ward walked all night is not home even when the night shifts there outlast the
/// days at home; nor is one whose stillness is always parted by signs of movement (rounds the
/// phone shows no walk of) while it rests that long with none at another. Work (or school) is the
/// other place where it spends long weekdays (`workingDay`, at whatever hour; a night shift
/// counted whole on the day it began) on a good share of the weekdays seen, or a few hours
/// (`longStay`) on most of them (on a device's first weekday, that one): from the first day, the
/// long weekday stay away from home, or a few hours of lectures, is work or school.
public struct DevicePlaces: Sendable, Hashable {
    public struct Place: Sendable, Hashable {
        public var centre: GeoPoint
        /// Milliseconds spent there.
        public var time: Int64
        /// Local days with a stay there of `longStay` or more.
        public var longStayDays: Int
        /// Local weekdays (Monday to Friday) with `workingDay` or more there, and with `longStay` or more.
        public var workDays = 0
        public var weekdaysThere = 0
        /// The longest visit there: the longest the phone lay there at once, moving about it aside.
        public var longestStill: Int64 = 0
        /// The longest the phone lay there with no sign of movement at all (`Visit.longestRest`).
        public var longestRest: Int64 = 0
    }

    public enum Kind: Sendable, Hashable {
        case home, work, other, unknown
    }

    /// Most time first.
    public var places: [Place]
    public var home: Int?
    public var work: Int?

    /// Stays within this of a place's centre are at it (a stale fix a couple of hundred metres
    /// off is common on arrival).
    public static let radius = 250.0
    /// Stays shorter than this are not visits.
    public static let shortestVisit: Int64 = 10 * 60_000
    public static let longStay: Int64 = 2 * 60 * 60_000
    /// This much of a weekday at one place away from home is a day of work or school there.
    public static let workingDay: Int64 = 4 * 60 * 60_000
    /// Lying still this long at once is a sleep (a night's, or a day's after a night shift).
    public static let sleepLength: Int64 = 5 * 60 * 60_000
    /// Leaving a place for no longer than this and coming back to it is moving about it (a ward's
    /// round, a walk round the block): the stay there goes on.
    public static let aboutThePlace: Int64 = 30 * 60_000

    public init(places: [Place] = [], home: Int? = nil, work: Int? = nil) {
        self.places = places
        self.home = home
        self.work = work
    }

    /// A run of consecutive stays at one location.
    struct Visit {
        var start: Int64
        var duration: Int64
        /// Where its longest stay was (its first may hold a stale fix from the place before, a café
        /// next door); `first` is where it began, which the stays after it are judged near.
        var location: GeoPoint
        var first: GeoPoint
        var longestStay: Int64
        /// It holds a night's rest (`isNight`): begun in the evening, a night away rather than at work.
        var sleptThere = false
        /// Its longest run of stays with no sign of movement between them (none ends moving), and the run going on.
        var longestRest: Int64 = 0
        var rest: Int64 = 0
    }

    /// The visits to one place parted only by moving about it (`aboutThePlace`).
    struct StayThere {
        var place: Int
        var start: Int64
        var end: Int64
        /// The time in its visits.
        var duration: Int64
        var sleptThere: Bool

        init(place: Int, _ visit: Visit) {
            (self.place, start, end, duration, sleptThere) = (place, visit.start, visit.start + visit.duration, visit.duration, visit.sleptThere)
        }

        mutating func add(_ visit: Visit) {
            end = visit.start + visit.duration
            duration += visit.duration
            sleptThere = sleptThere || visit.sleptThere
        }
    }

    /// The stationary slots joined into visits: consecutive stays within `radius` of the first, each
    /// visit placed where its longest stay was.
    static func visits(_ spans: [SlotSpan], isNight: (SlotSpan) -> Bool = { _ in false }) -> [Visit] {
        var visits: [Visit] = []
        var lastEnd: Int64?
        for span in spans {
            defer { lastEnd = span.end }
            guard span.slot.activity == .stationary, let location = span.slot.location else { continue }
            if let last = visits.last, lastEnd == span.start, last.start + last.duration == span.start, last.first.distance(to: location) <= radius {
                visits[visits.count - 1].duration += span.duration
                visits[visits.count - 1].rest += span.duration
                if span.duration > last.longestStay { (visits[visits.count - 1].location, visits[visits.count - 1].longestStay) = (location, span.duration) }
            } else {
                visits.append(Visit(start: span.start, duration: span.duration, location: location, first: location, longestStay: span.duration, rest: span.duration))
            }
            visits[visits.count - 1].longestRest = max(visits[visits.count - 1].longestRest, visits[visits.count - 1].rest)
            if span.slot.endsMoving == true { visits[visits.count - 1].rest = 0 }
            if isNight(span) { visits[visits.count - 1].sleptThere = true }
        }
        return visits
    }

    /// A still stay of three hours or more through 03:00 local: a night's rest.
    static func isNight(_ span: SlotSpan, calendar: Calendar) -> Bool {
        guard span.duration >= 3 * 60 * 60_000 else { return false }
        let start = Date(milliseconds: span.start)
        guard let three = calendar.date(bySettingHour: 3, minute: 0, second: 0, of: start)?.milliseconds else { return false }
        let next = three + 24 * 60 * 60_000
        return (span.start <= three && three < span.end) || (span.start <= next && next < span.end)
    }

    /// Clusters the visits (longest first) into places and names home and work.
    public static func learn(from spans: [SlotSpan], timeZone: TimeZone) -> DevicePlaces {
        let days = LocalDays(timeZone)
        let visits = Self.visits(spans) { isNight($0, calendar: days.calendar) }.filter { $0.duration >= shortestVisit }
            .sorted { ($0.duration, $1.start) > ($1.duration, $0.start) }
        var places: [Place] = []
        var longStayDates: [Set<String>] = []
        var dayTime: [[String: Int64]] = [], nightsAway: [[String: Int64]] = []
        var placeOf: [Int] = []
        for visit in visits {
            let location = visit.location
            let weight = Double(visit.duration)
            let index: Int
            if let near = places.indices.min(by: { places[$0].centre.distance(to: location) < places[$1].centre.distance(to: location) }),
               places[near].centre.distance(to: location) <= radius {
                index = near
                let total = Double(places[index].time) + weight
                let centre = places[index].centre
                places[index].centre = GeoPoint(
                    lat: (centre.lat * Double(places[index].time) + location.lat * weight) / total,
                    lon: (centre.lon * Double(places[index].time) + location.lon * weight) / total)
                places[index].time += visit.duration
            } else {
                index = places.count
                places.append(Place(centre: location, time: visit.duration, longStayDays: 0))
                longStayDates.append([])
                dayTime.append([:])
                nightsAway.append([:])
            }
            places[index].longestStill = max(places[index].longestStill, visit.duration)
            places[index].longestRest = max(places[index].longestRest, visit.longestRest)
            if visit.duration >= longStay { longStayDates[index].insert(days.name(of: visit.start)) }
            placeOf.append(index)
        }
        // The weekday time at each place, a stay there parted only by moving about it (`aboutThePlace`:
        // a ward's rounds) counted whole on the day it began: a night shift is one working day.
        var stay: StayThere?
        func count(_ stay: StayThere) {
            guard days.weekday(of: stay.start) < 5 else { return }
            // Arriving in the evening and resting there through the night is a night away, unless it happens on other days too.
            if stay.sleptThere && days.calendar.component(.hour, from: Date(milliseconds: stay.start)) >= 17 {
                nightsAway[stay.place][days.name(of: stay.start), default: 0] += stay.duration
            } else {
                dayTime[stay.place][days.name(of: stay.start), default: 0] += stay.duration
            }
        }
        for index in visits.indices.sorted(by: { visits[$0].start < visits[$1].start }) {
            let visit = visits[index]
            if var open = stay, open.place == placeOf[index], visit.start - open.end <= aboutThePlace {
                open.add(visit)
                stay = open
            } else {
                if let open = stay { count(open) }
                stay = StayThere(place: placeOf[index], visit)
            }
        }
        if let open = stay { count(open) }
        for index in places.indices {
            places[index].longStayDays = longStayDates[index].count
            let nights = nightsAway[index].values.filter { $0 >= workingDay }.count
            places[index].workDays = dayTime[index].values.filter { $0 >= workingDay }.count + (nights >= 2 ? nights : 0)
            places[index].weekdaysThere = dayTime[index].values.filter { $0 >= longStay }.count
        }
        let order = places.indices.sorted { (places[$0].time, places[$0].centre.lat) > (places[$1].time, places[$1].centre.lat) }
        places = order.map { places[$0] }
        guard !places.isEmpty else { return DevicePlaces() }
        // Home first: the place of most time the person sleeps at, if they sleep anywhere; one they
        // rest at with no sign of movement, before one where they never do.
        if places[0].longestStill < sleepLength, let slept = places.firstIndex(where: { $0.longestStill >= sleepLength }) {
            places.insert(places.remove(at: slept), at: 0)
        } else if places[0].longestRest < sleepLength,
                  let slept = places.firstIndex(where: { $0.longestStill >= sleepLength && $0.longestRest >= sleepLength }) {
            places.insert(places.remove(at: slept), at: 0)
        }
        // Work is a place of long weekdays on at least a quarter of the weekdays seen, or of a
        // few hours on most of them (lectures at different hours), or on a device's first weekday
        // of a few hours there. A weekday is seen once the data reaches its midday (not only the
        // end of a night).
        let weekdays = Set(spans.filter { span in
            !span.slot.isGap && days.weekday(of: span.end - 1) < 5 && days.calendar.component(.hour, from: Date(milliseconds: span.end - 1)) >= 12
        }.map { days.name(of: $0.end - 1) }).count
        let work = places.indices.dropFirst().filter { index in
            let place = places[index]
            return (place.workDays > 0 && place.workDays * 4 >= weekdays)
                || (place.weekdaysThere > 0 && place.weekdaysThere >= min(2, weekdays) && place.weekdaysThere * 2 >= weekdays)
        }.max { (places[$0].workDays, places[$0].weekdaysThere, places[$0].time) < (places[$1].workDays, places[$1].weekdaysThere, places[$1].time) }
        return DevicePlaces(places: places, home: 0, work: work)
    }

    /// The place a location is at, if any.
    public func place(of location: GeoPoint?) -> Int? {
        guard let location else { return nil }
        let near = places.indices.min { places[$0].centre.distance(to: location) < places[$1].centre.distance(to: location) }
        return near.flatMap { places[$0].centre.distance(to: location) <= Self.radius ? $0 : nil }
    }

    public func kind(of location: GeoPoint?) -> Kind {
        switch place(of: location) {
        case nil: .unknown
        case home: .home
        case work: .work
        default: .other
        }
    }
}
