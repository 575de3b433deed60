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
    /// Walking about a place between stops there at most this long: longer without a stop is a walk.
    static let longestAisles: Int64 = 15 * 60_000

    /// Running this share of walking about a place, and at least `shortestRun`, makes it exercise:
    /// a pitch or a track, not a shop's aisles.
    static let runningShare = 0.1
    static let shortestRun: Int64 = 5 * 60_000

    /// Whether `events` ran `runningShare` of `range` and `shortestRun` or more.
    static func ran(_ events: ArraySlice<AnnotatedEvent>, during range: Range<Int64>) -> Bool {
        let running = events.filter { $0.activity == .running }.reduce(Int64(0)) { $0 + max(0, min($1.end, range.upperBound) - max($1.start, range.lowerBound)) }
        return running >= shortestRun && Double(running) >= runningShare * Double(range.count)
    }

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
            if let first = firstFixAbout(place, fixes: fixes, from: start, to: best.range.lowerBound) {
                best.range = first..<best.range.upperBound
            }
        }
        if best.range.lowerBound - start < shortestWalk { best.range = start..<best.range.upperBound }
        if end - best.range.upperBound < shortestWalk { best.range = best.range.lowerBound..<end }
        return best
    }

    /// The last of `fixes` from `from` to `to` in a run within `onePlace` of `place` from the first.
    static func lastFixAbout(_ place: GeoPoint, fixes: [LocationEvent], from: Int64, to: Int64) -> Int64? {
        lastOfRun(about: place, fixes[fixes.partitioningIndex { $0.timestamp >= from }...].prefix { $0.timestamp < to })
    }

    /// The first of `fixes` after `from` up to `to` in a run within `onePlace` of `place` back from the last.
    static func firstFixAbout(_ place: GeoPoint, fixes: [LocationEvent], from: Int64, to: Int64) -> Int64? {
        lastOfRun(about: place, fixes[..<fixes.partitioningIndex { $0.timestamp >= to }].reversed().prefix { $0.timestamp > from })
    }

    /// The instant of the last of `fixes` (in the order walked through, from the place) in a run within
    /// `onePlace` of `place`: one fix astray before one near it is the fix's error, not a walk away.
    static func lastOfRun<Fixes: Sequence<LocationEvent>>(about place: GeoPoint, _ fixes: Fixes) -> Int64? {
        var last: Int64?, astray = false
        for fix in fixes {
            if fix.location.distance(to: place) <= onePlace {
                (last, astray) = (fix.timestamp, false)
            } else if astray {
                break
            } else {
                astray = true
            }
        }
        return last
    }

    /// A walk from `start` to `end` there and on to a short stop at `place` (a till): its end about the
    /// place while its fixes stay there, the aisles walked before the stop (each at least `shortestWalk`,
    /// the aisles at most `longestAisles`: longer, it is a walk in a park).
    static func endingAt(_ place: GeoPoint, fixes: [LocationEvent], start: Int64, end: Int64) -> (range: Range<Int64>, place: GeoPoint?)? {
        guard let first = firstFixAbout(place, fixes: fixes, from: start, to: end), (shortestWalk...longestAisles).contains(end - first),
              first - start >= shortestWalk else { return nil }
        // The walk there shows itself: a fix on the way, away from the place.
        let way = fixes[fixes.partitioningIndex { $0.timestamp > start }..<fixes.partitioningIndex { $0.timestamp >= first }]
        guard way.contains(where: { $0.location.distance(to: place) > onePlace }) else { return nil }
        return (first..<end, place)
    }

    /// A walk from `start` to `end` between two short stops at `place`, after walking about it: about it
    /// all when every fix stays there, for at most `longestAisles` (from one aisle to the next).
    static func between(stopsAt place: GeoPoint, and next: GeoPoint, fixes: [LocationEvent], start: Int64, end: Int64) -> (range: Range<Int64>, place: GeoPoint?)? {
        guard place.distance(to: next) <= onePlace, end - start <= longestAisles else { return nil }
        let walked = fixes[fixes.partitioningIndex { $0.timestamp > start }..<fixes.partitioningIndex { $0.timestamp >= end }]
        guard walked.allSatisfy({ $0.location.distance(to: place) <= onePlace }) else { return nil }
        return (start..<end, place)
    }

    /// A walk from `start` to `end` straight on from walking about `place`: its stretch still about
    /// it, while its fixes stay there (at least `shortestWalk`).
    static func goingOn(about place: GeoPoint, fixes: [LocationEvent], start: Int64, end: Int64) -> (range: Range<Int64>, place: GeoPoint?)? {
        guard let last = lastFixAbout(place, fixes: fixes, from: start, to: end), last - start >= shortestWalk else { return nil }
        return (start..<(end - last < shortestWalk ? end : last), place)
    }
}
