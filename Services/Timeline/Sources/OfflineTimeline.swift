import Foundation
import GuardianShared

/// A day's slots from a file of events, without the bus: what `guardian timeline build` prints.
public enum OfflineTimeline {
    /// Reads contract-shaped events, one JSON object per line (`{ts, lat, lon, …}` or
    /// `{ts, activity, …}`, device uploads or ingest's normalised events); returns what was read and
    /// the reasons for the lines that were not.
    public static func read(jsonLines data: Data) -> (motion: [MotionEvent], locations: [LocationEvent], problems: [String]) {
        var motion: [MotionEvent] = [], locations: [LocationEvent] = [], problems: [String] = []
        let decoder = JSONDecoder()
        struct Timed: Decodable { var ts: Timestamp }
        for (number, line) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true).enumerated() {
            let bytes = Data(line.utf8)
            do {
                let ts = try decoder.decode(Timed.self, from: bytes).ts.milliseconds
                if line.contains("\"activity\"") {
                    let body = try decoder.decode(Motion.self, from: bytes)
                    if let activity = MotionActivity(rawValue: body.activity.rawValue) { motion.append(MotionEvent(timestamp: ts, activity: activity)) }
                } else {
                    let body = try decoder.decode(Location.self, from: bytes)
                    locations.append(LocationEvent(timestamp: ts, location: GeoPoint(lat: body.lat, lon: body.lon)))
                }
            } catch {
                problems.append("line \(number + 1): \(ContractViolation.from(error))")
            }
        }
        return (motion.sorted { $0.timestamp < $1.timestamp }, locations.sorted { $0.timestamp < $1.timestamp }, problems)
    }

    /// Segments and labels (standard day only) and returns the local days, as published.
    public static func build(motion: [MotionEvent], locations: [LocationEvent], timeZone: TimeZone, deviceId: String = "offline") throws -> [PublishedDay] {
        guard let until = (motion.map(\.timestamp) + locations.map(\.timestamp)).max() else { return [] }
        let update = TimelineGenerator().rebuild(motion: motion, locations: locations, until: until)
        let classifier = try SlotClassifier.train(examples: [], places: update.state.spans, timeZone: timeZone)
        let labelled = classifier.label(update.state, timeZone: timeZone)
        let now = Timestamp.now()
        return DayTimeline.days(of: labelled, timeZone: timeZone).map { PublishedDay(deviceId: deviceId, day: $0, generatedAt: now) }
    }
}
