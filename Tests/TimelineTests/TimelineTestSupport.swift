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

/// The motion of `month` known at `instant`, and the locations from the last one at or before `from`.
func known(_ month: SyntheticMonth, at instant: Int64, from: Int64? = nil) -> (motion: [MotionEvent], locations: [LocationEvent]) {
    let motion = month.motion.filter { $0.timestamp <= instant && $0.timestamp >= (from ?? .min) }
    let locations = month.locations.filter { $0.timestamp <= instant }
    let first = from.flatMap { from in locations.lastIndex { $0.timestamp <= from } } ?? 0
    return (motion, Array(locations[first...]))
}
