import Foundation
import GuardianTimeline

/// A made-up person with a routine and their own places, for labelled evaluation data.
public struct SyntheticPerson: Sendable, Hashable {
    /// How a person's weeks go.
    public enum Routine: String, Sendable, CaseIterable, Hashable {
        /// Drives to an office on weekdays, lunch out, runs some evenings, a bar some Fridays.
        case officeWorker = "office-worker"
        /// Walks to school on weekdays (school is the child's `work`), football on Wednesdays.
        case schoolChild = "school-child"
        /// Works hospital nights Monday to Thursday (22:00–06:30) and rests at home by day.
        case nightWorker = "night-worker"
    }

    /// The places a person goes to.
    public enum Place: String, Sendable, CaseIterable, Hashable {
        case home, work, lunch, supermarket, park, family, bar, pitch
    }

    public var deviceId: String
    public var routine: Routine
    public var places: [Place: GeoPoint]

    /// A person of `routine` living somewhere in a 10 km square, with places placed for `seed`.
    public init(deviceId: String, routine: Routine, seed: UInt64) {
        self.deviceId = deviceId
        self.routine = routine
        var random = SplitMix64(seed: seed)
        func around(_ centre: GeoPoint, _ distance: ClosedRange<Double>) -> GeoPoint {
            let metres = Double.random(in: distance, using: &random), angle = Double.random(in: 0..<(2 * .pi), using: &random)
            return centre.moved(east: metres * cos(angle), north: metres * sin(angle))
        }
        let city = GeoPoint(lat: 52.52, lon: 13.405)
        let home = around(city, 0...5_000)
        let work = routine == .schoolChild ? around(home, 700...1_200) : around(home, 3_000...9_000)
        places = [
            .home: home, .work: work, .lunch: around(work, 250...400), .supermarket: around(home, 500...900),
            .park: around(home, 1_200...1_800), .family: around(home, 8_000...15_000), .bar: around(home, 2_000...4_000),
            .pitch: around(home, 1_500...2_500),
        ]
    }

    public subscript(place: Place) -> GeoPoint { places[place]! }
}

extension GeoPoint {
    /// The point `east` and `north` metres away.
    func moved(east: Double, north: Double) -> GeoPoint {
        let metresPerDegree = 111_195.0
        return GeoPoint(lat: lat + north / metresPerDegree, lon: lon + east / (metresPerDegree * cos(lat * .pi / 180)))
    }
}
