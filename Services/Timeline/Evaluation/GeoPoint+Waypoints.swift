import GuardianShared
import GuardianTimeline

extension GeoPoint {
    /// Points about every `spacing` metres on the straight line from here to `end` (here excluded,
    /// `end` included), each with its fraction of the way: where a synthetic phone reports a fix.
    func waypoints(to end: GeoPoint, every spacing: Double) -> [(fraction: Double, point: GeoPoint)] {
        let steps = Int(distance(to: end) / spacing)
        guard steps > 0 else { return [] }
        return (1...steps).map { step in
            let fraction = Double(step) / Double(steps)
            return (fraction, GeoPoint(lat: lat + (end.lat - lat) * fraction, lon: lon + (end.lon - lon) * fraction))
        }
    }
}
