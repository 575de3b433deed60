/// A motion event with its end (the next event's start) and the location in effect when it began.
public struct AnnotatedEvent: Sendable, Codable, Hashable {
    public var start: Int64
    public var end: Int64
    public var activity: MotionActivity
    public var location: GeoPoint?

    public init(start: Int64, end: Int64, activity: MotionActivity, location: GeoPoint?) {
        self.start = start
        self.end = end
        self.activity = activity
        self.location = location
    }

    public var duration: Int64 { end - start }

    /// Longer than this without a motion event is a gap in the data (motion comes on every
    /// change, so a night's stay may be a single event).
    public static let longestSilence: Int64 = 12 * 60 * 60_000
    /// A stay arrived at takes the first fix this soon after its start, not the one from the way there.
    public static let settling: Int64 = 3 * 60_000
    /// How long the last event before a gap is taken to last.
    public static let silenceLead: Int64 = 60_000
    /// A fix this far (m) from a stay's place, not contradicted by the next one, is the phone
    /// somewhere else: motion missed the way there, and the stay there begins with that fix.
    public static let movedUnseen = 500.0
    /// A fix this far (m) from the fixes either side of it, in stillness, strayed (`withoutStrays`).
    public static let strayFix = 100.0

    /// Annotates motion with location, the first step of timeline generation.
    ///
    /// `unknown` motion is dropped first, so the event before it lasts until the next known one.
    /// Events are ordered by time; of several at the same millisecond only the first in
    /// `MotionActivity` order is kept, and events after `until` are ignored. Each event takes
    /// the latest location at or before its start (none before the first fix), but a stay arrived
    /// at (after movement) takes the first fix within `settling` of its start (each of its events
    /// begun before that fix, when its stillness is reported more than once), a stay is split
    /// where a fix shows the phone somewhere else (`splitAtUnseenMoves`), and a ride where its fixes
    /// show it stopped (`splitAtStillFixes`). Each event ends
    /// where the next begins; the last one ends at `until`. Where no motion came for longer than
    /// `longestSilence`, the device was off: the event before lasts `silenceLead` and a gap
    /// (activity `unknown`, no location) holds until the next event, so days without data have
    /// no slots. A long walk the fixes show going nowhere ended unseen (`walksEndedUnseen`), and a
    /// ride its fixes fall silent in arrived unseen (`ridesArrivedUnseen`).
    ///
    /// To annotate from some instant on, pass the motion from it and the locations from the
    /// last fix at or before it.
    public static func annotate(motion: [MotionEvent], locations: [LocationEvent], until: Int64) -> [AnnotatedEvent] {
        var known = motion.filter { $0.activity != .unknown && $0.timestamp <= until }
        known.sort { ($0.timestamp, $0.activity.order) < ($1.timestamp, $1.activity.order) }
        let fixes = locations.sorted { $0.timestamp < $1.timestamp }

        var events: [AnnotatedEvent] = []
        events.reserveCapacity(known.count)
        var fixIndex = 0
        var current: GeoPoint?
        for event in known {
            if let last = events.last, last.start == event.timestamp { continue }
            while fixIndex < fixes.count, fixes[fixIndex].timestamp <= event.timestamp {
                current = fixes[fixIndex].location
                fixIndex += 1
            }
            if let last = events.last {
                if event.timestamp - last.start > longestSilence {
                    let lead = last.start + silenceLead
                    events[events.count - 1].end = lead
                    events.append(AnnotatedEvent(start: lead, end: event.timestamp, activity: .unknown, location: nil))
                } else {
                    events[events.count - 1].end = event.timestamp
                }
            }
            events.append(AnnotatedEvent(start: event.timestamp, end: until, activity: event.activity, location: current))
        }
        // Arriving, the fix in effect is from the way there: a stay takes its own first fix when one
        // comes soon, also where its stillness is reported in several events (`stationary` at medium
        // confidence, then at high): every event of it begun before that fix takes it.
        var next = 0
        for index in events.indices.dropFirst() where events[index].activity == .stationary && events[index - 1].activity != .stationary {
            let start = events[index].start
            var last = index
            while last + 1 < events.count, events[last + 1].activity == .stationary { last += 1 }
            next = fixes[next...].firstIndex { $0.timestamp > start } ?? fixes.count
            guard next < fixes.count, fixes[next].timestamp < min(events[last].end, start + settling) else { continue }
            for member in index...last where events[member].start < fixes[next].timestamp { events[member].location = fixes[next].location }
        }
        return ridesArrivedUnseen(walksEndedUnseen(splitAtStillFixes(splitAtUnseenMoves(events, fixes), fixes), fixes), fixes)
    }

    /// Fixes this far apart in time during a ride (no motion report between them either) are a
    /// silence the ride may have ended in (`ridesArrivedUnseen`).
    public static let rideSilence: Int64 = 20 * 60_000
    /// The ride's speed before such a silence is taken over the fixes of this long before it.
    public static let recentFixes: Int64 = 10 * 60_000
    /// A ride is cut only where it ends at least this long before the motion or the fixes show it.
    public static let shortestUnseenStay: Int64 = 5 * 60_000

    /// Each ride (cycling, driving) with a silence of `rideSilence` or more between two of its fixes
    /// (the one before it among them, if recent) ended where the way to the later fix at the speed
    /// before the silence would have: a stay there from then (the phone put in a bag at work, silent
    /// until the afternoon).
    static func ridesArrivedUnseen(_ events: [AnnotatedEvent], _ fixes: [LocationEvent]) -> [AnnotatedEvent] {
        stopping(events) { event in
            guard [.cycling, .automotive].contains(event.activity), event.duration > rideSilence,
                  let before = silenceInRide(event, fixes), let speed = speed(before: before, fixes) else { return nil }
            let silent = fixes[before], after = fixes[before + 1]
            let arrival = max(event.start, silent.timestamp) + Int64(silent.location.distance(to: after.location) / speed * 1000)
            return arrival < min(event.end, after.timestamp) - shortestUnseenStay ? (arrival, after.location) : nil
        }
    }

    /// `events` with each that `stop` gives an instant and a place for cut there: the event until
    /// then, a stay at the place for the rest of it.
    static func stopping(_ events: [AnnotatedEvent], where stop: (AnnotatedEvent) -> (at: Int64, place: GeoPoint)?) -> [AnnotatedEvent] {
        var stopped: [AnnotatedEvent] = []
        stopped.reserveCapacity(events.count)
        for event in events {
            guard let (at, place) = stop(event) else {
                stopped.append(event)
                continue
            }
            stopped.append(AnnotatedEvent(start: event.start, end: at, activity: event.activity, location: event.location))
            stopped.append(AnnotatedEvent(start: at, end: event.end, activity: .stationary, location: place))
        }
        return stopped
    }

    /// The index of the fix a silence of `rideSilence` in `ride` follows: one during the ride, or
    /// the one in effect as it began (`recentFixes` before at most); the next fix within
    /// `stillFixes` of the ride's end, and the ride's fixes after it near that one.
    static func silenceInRide(_ ride: AnnotatedEvent, _ fixes: [LocationEvent]) -> Int? {
        let first = fixes.partitioningIndex { $0.timestamp > ride.start }
        let silence = (max(0, first - 1)..<fixes.count).prefix { fixes[$0].timestamp < ride.end }.first { index in
            index + 1 < fixes.count && fixes[index].timestamp >= ride.start - recentFixes
                && fixes[index + 1].timestamp - fixes[index].timestamp >= rideSilence && fixes[index + 1].timestamp <= ride.end + stillFixes
        }
        // Fixes moving on after it: the ride went on (a train out of a tunnel).
        guard let silence else { return nil }
        let place = fixes[silence + 1].location
        return fixes[(silence + 2)...].prefix { $0.timestamp < ride.end }.allSatisfy { $0.location.distance(to: place) <= DevicePlaces.radius } ? silence : nil
    }

    /// Metres a second along the fixes of `recentFixes` up to the one at `index`, if they span two minutes and 100 m.
    static func speed(before index: Int, _ fixes: [LocationEvent]) -> Double? {
        let from = fixes[..<index].lastIndex { $0.timestamp < fixes[index].timestamp - recentFixes }.map { $0 + 1 } ?? 0
        let metres = (from..<index).reduce(0.0) { $0 + fixes[$1].location.distance(to: fixes[$1 + 1].location) }
        let seconds = Double(fixes[index].timestamp - fixes[from].timestamp) / 1000
        return seconds >= 120 && metres > 100 ? metres / seconds : nil
    }

    /// A walk with no motion report after it for this long, and no fix during it, was a short one:
    /// motion missed the stop (a phone put down after a walk to the bathroom, silent for an hour).
    public static let walkUnseenEnd: Int64 = 20 * 60_000
    /// How long such a walk is taken to last.
    public static let walkBeforeSilence: Int64 = 3 * 60_000

    /// Each walk longer than `walkUnseenEnd` with no fix during it and the fixes either side of it
    /// within `strayFix` of each other (the phone where it was), cut to `walkBeforeSilence`, a
    /// stay at the fix before it holding the rest.
    static func walksEndedUnseen(_ events: [AnnotatedEvent], _ fixes: [LocationEvent]) -> [AnnotatedEvent] {
        stopping(events) { event in
            let next = fixes.partitioningIndex { $0.timestamp > event.start }
            guard event.activity == .walking, event.duration > walkUnseenEnd, next > 0, next < fixes.count,
                  fixes[next].timestamp >= event.end, fixes[next - 1].location.distance(to: fixes[next].location) <= strayFix else { return nil }
            return (event.start + walkBeforeSilence, fixes[next - 1].location)
        }
    }

    /// `fixes` (in order) without those astray while the phone lay still: a fix more than `strayFix`
    /// from the fixes either side of it, those two within `strayFix` of each other, and the phone still
    /// from the one to the other (`motion`, in order: the event in effect at the first and every one until
    /// the other), is the fix's error. Each fix is judged by its neighbours alone, so the fixes from the one
    /// before the last at or before an instant, with the motion from the event in effect then, judge every
    /// fix after that instant as all of them would.
    public static func withoutStrays(_ fixes: [LocationEvent], motion: [MotionEvent]) -> [LocationEvent] {
        guard fixes.count > 2 else { return fixes }
        var kept: [LocationEvent] = []
        kept.reserveCapacity(fixes.count)
        for (index, fix) in fixes.enumerated() {
            guard index > 0, index + 1 < fixes.count else {
                kept.append(fix)
                continue
            }
            let before = fixes[index - 1], after = fixes[index + 1]
            if fix.location.distance(to: before.location) > strayFix, fix.location.distance(to: after.location) > strayFix,
               before.location.distance(to: after.location) <= strayFix {
                let next = motion.partitioningIndex { $0.timestamp > before.timestamp }
                if next > 0, motion[(next - 1)...].prefix(while: { $0.timestamp < after.timestamp }).allSatisfy({ $0.activity == .stationary }) { continue }
            }
            kept.append(fix)
        }
        return kept
    }

    /// A ride (cycling, driving) during which the fixes stay within `DevicePlaces.radius` of one
    /// another for this long, `movedUnseen` or farther from where it began, is no ride from the
    /// first of them: it got there, the phone lay still and motion missed the stop (a report lost
    /// in a gap).
    public static let stillFixes: Int64 = 15 * 60_000

    /// Each ride split where its fixes show the phone staying at one place (`stillFixes`): a stay
    /// there from the first of them until a fix farther off (the ride going on) or the ride's end.
    static func splitAtStillFixes(_ events: [AnnotatedEvent], _ fixes: [LocationEvent]) -> [AnnotatedEvent] {
        var split: [AnnotatedEvent] = []
        split.reserveCapacity(events.count)
        var first = 0
        for event in events {
            guard [.cycling, .automotive].contains(event.activity), let origin = event.location else {
                split.append(event)
                continue
            }
            while first < fixes.count, fixes[first].timestamp <= event.start { first += 1 }
            let inside = fixes[first...].prefix { $0.timestamp < event.end }
            // The first fix the fixes after it stay near for `stillFixes`, and the first fix after those farther off.
            let still = inside.indices.lazy.compactMap { start -> (start: Int, end: Int64)? in
                // Fixes stuck where the ride began are stale (the phone reports its last place), not a stop.
                let place = fixes[start].location
                guard place.distance(to: origin) > movedUnseen else { return nil }
                let near = inside[start...].prefix { $0.location.distance(to: place) <= DevicePlaces.radius }
                guard let last = near.last, last.timestamp - fixes[start].timestamp >= stillFixes else { return nil }
                return (start, near.endIndex < inside.endIndex ? inside[near.endIndex].timestamp : event.end)
            }.first
            guard let still else {
                split.append(event)
                continue
            }
            let stop = fixes[still.start]
            if stop.timestamp > event.start { split.append(AnnotatedEvent(start: event.start, end: stop.timestamp, activity: event.activity, location: event.location)) }
            split.append(AnnotatedEvent(start: stop.timestamp, end: still.end, activity: .stationary, location: stop.location))
            if still.end < event.end {
                split.append(AnnotatedEvent(start: still.end, end: event.end, activity: event.activity, location: fixes[still.start...].first { $0.timestamp >= still.end }?.location))
            }
        }
        return split
    }

    /// Each stay split where a fix `movedUnseen` away (the next fix within `DevicePlaces.radius` of
    /// it, or none before the stay ends) shows it went on somewhere else.
    static func splitAtUnseenMoves(_ events: [AnnotatedEvent], _ fixes: [LocationEvent]) -> [AnnotatedEvent] {
        var split: [AnnotatedEvent] = []
        split.reserveCapacity(events.count)
        var first = 0
        for event in events {
            guard event.activity == .stationary, let location = event.location else {
                split.append(event)
                continue
            }
            while first < fixes.count, fixes[first].timestamp <= event.start { first += 1 }
            var piece = event, place = location, index = first
            while index < fixes.count, fixes[index].timestamp < event.end {
                let fix = fixes[index]
                index += 1
                let confirmed = index == fixes.count || fixes[index].timestamp >= event.end
                    || fixes[index].location.distance(to: fix.location) <= DevicePlaces.radius
                guard fix.location.distance(to: place) > movedUnseen, confirmed else { continue }
                split.append(AnnotatedEvent(start: piece.start, end: fix.timestamp, activity: .stationary, location: place))
                piece = AnnotatedEvent(start: fix.timestamp, end: event.end, activity: .stationary, location: fix.location)
                place = fix.location
            }
            split.append(piece)
        }
        return split
    }
}

extension MotionActivity {
    var order: Int { Self.allCases.firstIndex(of: self)! }
}
