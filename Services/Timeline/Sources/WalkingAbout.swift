/// Where a walk splits around walking about one place: stopping now and then, every stop from the
/// first to the last placed within `onePlace` of the first (the aisles of a shop, a market), apart from the walk
/// there and the walk back, which go somewhere.
enum WalkingAbout {
    /// At least this many stops, from the first to the last at least `shortest` apart.
    static let fewestStops = 3
    static let shortest: Int64 = 10 * 60_000
    /// Stops this close (m) to the first are at its place: fixes from the aisles scatter.
    static let onePlace = 100.0
    /// The walk there and back are split off only when at least this long (shorter, they stay part of it).
    static let shortestWalk: Int64 = 3 * 60_000

    /// The stretch of a walk's `events` from `start` to `end` spent walking about one place, and the
    /// place: from the first stop to the last, and on either side while the walk's `fixes` (in
    /// order) stay within `onePlace` of it (walking the aisles before the first stop and after the last).
    static func stretch(_ events: ArraySlice<AnnotatedEvent>, fixes: [LocationEvent] = [], start: Int64, end: Int64) -> (range: Range<Int64>, place: GeoPoint?)? {
        var stops: [(range: Range<Int64>, place: GeoPoint?)] = []
        for event in events where event.activity == .stationary {
            if let last = stops.last, last.range.upperBound == event.start, last.place == event.location {
                stops[stops.count - 1].range = last.range.lowerBound..<event.end
            } else {
                stops.append((event.start..<event.end, event.location))
            }
        }
        func same(_ one: GeoPoint?, _ other: GeoPoint?) -> Bool {
            guard let one, let other else { return one == other }
            return one.distance(to: other) <= onePlace
        }
        var best: (range: Range<Int64>, place: GeoPoint?)?
        var first = 0
        while first < stops.count {
            var last = first
            while last + 1 < stops.count, same(stops[last + 1].place, stops[first].place) { last += 1 }
            let range = stops[first].range.lowerBound..<stops[last].range.upperBound
            if last - first + 1 >= fewestStops, range.count >= shortest, range.count > best?.range.count ?? 0 {
                best = (range, stops[first].place)
            }
            first = last + 1
        }
        guard var best else { return nil }
        if let place = best.place {
            if let last = lastFixAbout(place, fixes: fixes, from: best.range.upperBound, to: end) {
                best.range = best.range.lowerBound..<last
            }
            let before = fixes[..<fixes.partitioningIndex { $0.timestamp >= best.range.lowerBound }].reversed().prefix { $0.timestamp > start }
            if let first = before.prefix(while: { $0.location.distance(to: place) <= onePlace }).last {
                best.range = first.timestamp..<best.range.upperBound
            }
        }
        if best.range.lowerBound - start < shortestWalk { best.range = start..<best.range.upperBound }
        if end - best.range.upperBound < shortestWalk { best.range = best.range.lowerBound..<end }
        return best
    }

    /// The last of `fixes` from `from` to `to` in a run within `onePlace` of `place` from the first.
    static func lastFixAbout(_ place: GeoPoint, fixes: [LocationEvent], from: Int64, to: Int64) -> Int64? {
        fixes[fixes.partitioningIndex { $0.timestamp >= from }...].prefix { $0.timestamp < to }
            .prefix { $0.location.distance(to: place) <= onePlace }.last?.timestamp
    }

    /// A walk from `start` to `end` straight on from walking about `place`: its stretch still about
    /// it, while its fixes stay there (at least `shortestWalk`).
    static func goingOn(about place: GeoPoint, fixes: [LocationEvent], start: Int64, end: Int64) -> (range: Range<Int64>, place: GeoPoint?)? {
        guard let last = lastFixAbout(place, fixes: fixes, from: start, to: end), last - start >= shortestWalk else { return nil }
        return (start..<(end - last < shortestWalk ? end : last), place)
    }
}
