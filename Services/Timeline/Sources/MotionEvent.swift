import Foundation

/// A latitude/longitude pair in degrees; encodes as `{lat, lon}`.
public struct GeoPoint: Sendable, Codable, Hashable {
    public var lat: Double
    public var lon: Double

    public init(lat: Double, lon: Double) {
        self.lat = lat
        self.lon = lon
    }

    /// Metres east and north of `origin` (equirectangular; exact enough within a few hundred km).
    public func offset(from origin: GeoPoint) -> (east: Double, north: Double) {
        let metresPerDegree = 111_195.0
        let east = (lon - origin.lon) * metresPerDegree * cos(origin.lat * .pi / 180)
        return (east, (lat - origin.lat) * metresPerDegree)
    }

    public func distance(to other: GeoPoint) -> Double {
        let (east, north) = offset(from: other)
        return (east * east + north * north).squareRoot()
    }
}

/// A motion activity change: the activity holds from `timestamp` until the next event.
public struct MotionEvent: Sendable, Codable, Hashable {
    /// Milliseconds since the Unix epoch.
    public var timestamp: Int64
    public var activity: MotionActivity

    public init(timestamp: Int64, activity: MotionActivity) {
        self.timestamp = timestamp
        self.activity = activity
    }
}

/// A location fix: the person is taken to be here from `timestamp` until the next fix.
public struct LocationEvent: Sendable, Codable, Hashable {
    /// Milliseconds since the Unix epoch.
    public var timestamp: Int64
    public var location: GeoPoint

    public init(timestamp: Int64, location: GeoPoint) {
        self.timestamp = timestamp
        self.location = location
    }
}
