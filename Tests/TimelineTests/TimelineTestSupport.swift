import Foundation
@testable import GuardianTimeline
import GuardianTimelineEvaluation

/// Milliseconds since the epoch for `yyyy-MM-dd HH:mm:ss` in UTC.
func utc(_ text: String) -> Int64 {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
    return Int64(formatter.date(from: text)!.timeIntervalSince1970 * 1000)
}

let minute = SegmentationPass.minute

/// Contiguous annotated events from (activity, minutes) pairs, starting at `start`.
func events(_ pieces: [(MotionActivity, Double)], start: Int64 = 0) -> [AnnotatedEvent] {
    var time = start
    return pieces.map { activity, minutes in
        let end = time + Int64(minutes * 60_000)
        defer { time = end }
        return AnnotatedEvent(start: time, end: end, activity: activity, location: nil)
    }
}

/// What one pass (or the given passes) leave of `events`: (activity, minutes from the first event, minutes long).
func segment(_ events: [AnnotatedEvent], _ passes: [SegmentationPass]) -> [(MotionActivity, Double, Double)] {
    let origin = events.first?.start ?? 0
    return Segmenter(passes: passes).run(events).spans.map {
        ($0.activity, Double($0.start - origin) / 60_000, Double($0.end - $0.start) / 60_000)
    }
}

func same(_ a: [(MotionActivity, Double, Double)], _ b: [(MotionActivity, Double, Double)]) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && abs($0.1 - $1.1) < 1e-9 && abs($0.2 - $1.2) < 1e-9 }
}

/// The motion and locations of `month` known at `instant` that `TimelineGenerator.update` needs from
/// `from`: locations from the one before the last one at or before it, motion from the known event in
/// effect at the earlier of the two.
func known(_ month: SyntheticMonth, at instant: Int64, from: Int64? = nil) -> (motion: [MotionEvent], locations: [LocationEvent]) {
    known(motion: month.motion, locations: month.locations, at: instant, from: from)
}

/// The same of `motion` and `locations` (each in order).
func known(motion allMotion: [MotionEvent], locations allLocations: [LocationEvent], at instant: Int64, from: Int64? = nil) -> (motion: [MotionEvent], locations: [LocationEvent]) {
    let locations = allLocations.filter { $0.timestamp <= instant }
    let last = from.flatMap { from in locations.lastIndex { $0.timestamp <= from } }
    let first = last.map { max($0 - 1, 0) } ?? 0
    let earliest = min(from ?? .min, last == nil ? .max : locations[first].timestamp)
    let inEffect = allMotion.last { $0.timestamp <= earliest && $0.activity != .unknown }?.timestamp ?? earliest
    let motion = allMotion.filter { $0.timestamp <= instant && $0.timestamp >= inEffect }
    return (motion, Array(locations[first...]))
}
