import Foundation

/// The places a device stays at, learned from its slots: stays clustered by location. Home is
/// where it rests longest; work (or school) is the other place with regular long stays, at
/// whatever hour they happen.
public struct DevicePlaces: Sendable, Hashable {
    public struct Place: Sendable, Hashable {
        public var centre: GeoPoint
        /// Milliseconds spent there.
        public var time: Int64
        /// Local days with a stay there of `longStay` or more.
        public var longStayDays: Int
    }

    public enum Kind: Sendable, Hashable {
        case home, work, other, unknown
    }

    /// Most time first.
    public var places: [Place]
    public var home: Int?
    public var work: Int?

    /// Stays within this of a place's centre are at it.
    public static let radius = 250.0
    /// Stays shorter than this are not visits.
    public static let shortestVisit: Int64 = 10 * 60_000
    public static let longStay: Int64 = 2 * 60 * 60_000

    public init(places: [Place] = [], home: Int? = nil, work: Int? = nil) {
        self.places = places
        self.home = home
        self.work = work
    }

    /// A run of consecutive stays at one location.
    struct Visit {
        var start: Int64
        var duration: Int64
        var location: GeoPoint
    }

    /// The stationary slots joined into visits: consecutive stays within `radius` of the first.
    static func visits(_ spans: [SlotSpan]) -> [Visit] {
        var visits: [Visit] = []
        var lastEnd: Int64?
        for span in spans {
            defer { lastEnd = span.end }
            guard span.slot.activity == .stationary, let location = span.slot.location else { continue }
            if let last = visits.last, lastEnd == span.start, last.start + last.duration == span.start, last.location.distance(to: location) <= radius {
                visits[visits.count - 1].duration += span.duration
            } else {
                visits.append(Visit(start: span.start, duration: span.duration, location: location))
            }
        }
        return visits
    }

    /// Clusters the visits (longest first) into places and names home and work.
    public static func learn(from spans: [SlotSpan], timeZone: TimeZone) -> DevicePlaces {
        let days = LocalDays(timeZone)
        let visits = Self.visits(spans).filter { $0.duration >= shortestVisit }
            .sorted { ($0.duration, $1.start) > ($1.duration, $0.start) }
        var places: [Place] = []
        var longStayDates: [Set<String>] = []
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
            }
            if visit.duration >= longStay { longStayDates[index].insert(days.name(of: visit.start)) }
        }
        for index in places.indices { places[index].longStayDays = longStayDates[index].count }
        places.sort { ($0.time, $0.centre.lat) > ($1.time, $1.centre.lat) }
        guard !places.isEmpty else { return DevicePlaces() }
        let work = places.indices.dropFirst().filter { places[$0].longStayDays > 0 }
            .max { (places[$0].longStayDays, places[$0].time) < (places[$1].longStayDays, places[$1].time) }
        let regularWork = work.flatMap { index in
            places[index].longStayDays >= 2 || places.allSatisfy({ $0.longStayDays <= 1 }) ? index : nil
        }
        return DevicePlaces(places: places, home: 0, work: regularWork)
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
