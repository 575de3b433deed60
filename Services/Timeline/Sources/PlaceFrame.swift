import Foundation

/// The user's places, as the classifier measures locations: metres east and north of home,
/// divided by `radius` and clipped to [-1, 1].
public struct PlaceFrame: Sendable, Codable, Hashable {
    /// Where the user spends the most time.
    public var home: GeoPoint
    /// Where the user spends the most weekday working hours, away from home.
    public var work: GeoPoint?
    /// The distance from home within which the user spends 90% of their time (at least 1 km).
    public var radius: Double

    public init(home: GeoPoint, work: GeoPoint?, radius: Double) {
        self.home = home
        self.work = work
        self.radius = radius
    }

    /// Finds the places in slots (start, duration, location), weighting each by its duration.
    /// Locations are grouped in cells of about 250 m; `nil` without any location.
    static func fit(_ slots: [(observation: SlotObservation, location: GeoPoint)]) -> PlaceFrame? {
        struct Cell {
            var time = 0.0, workTime = 0.0, lat = 0.0, lon = 0.0
            var centre: GeoPoint { GeoPoint(lat: lat / time, lon: lon / time) }
        }
        struct Key: Hashable { var lat: Int, lon: Int }
        var cells: [Key: Cell] = [:]
        for (observation, location) in slots {
            let weight = max(observation.minutes, 1)
            let key = Key(lat: Int((location.lat / 0.0025).rounded()), lon: Int((location.lon / 0.0025).rounded()))
            cells[key, default: Cell()].time += weight
            cells[key]!.workTime += observation.workingMinutes
            cells[key]!.lat += location.lat * weight
            cells[key]!.lon += location.lon * weight
        }
        let ranked = cells.values.sorted { ($0.time, $0.lat) > ($1.time, $1.lat) }
        guard let homeCell = ranked.first else { return nil }
        let home = homeCell.centre
        let work = ranked.filter { $0.workTime > 0 && $0.centre.distance(to: home) > 500 }
            .max { ($0.workTime, $0.lat) < ($1.workTime, $1.lat) }?.centre

        let distances = slots.map { ($0.location.distance(to: home), max($0.observation.minutes, 1)) }.sorted { $0.0 < $1.0 }
        let total = distances.reduce(0) { $0 + $1.1 }
        var covered = 0.0, radius = 0.0
        for (distance, weight) in distances {
            covered += weight
            radius = distance
            if covered >= 0.9 * total { break }
        }
        return PlaceFrame(home: home, work: work, radius: max(radius, 1000))
    }

    /// East and north of home in units of `radius`, clipped to [-1, 1]; (0, 0) without a location.
    func coordinates(of location: GeoPoint?) -> (Double, Double) {
        guard let location else { return (0, 0) }
        let (east, north) = location.offset(from: home)
        return (min(max(east / radius, -1), 1), min(max(north / radius, -1), 1))
    }
}
