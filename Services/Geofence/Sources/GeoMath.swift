import Foundation

/// Great-circle geometry on a sphere of the Earth's mean radius.
///
/// Points are latitude/longitude in degrees or unit vectors in 3D (x towards 0°E on the equator,
/// z towards the North Pole). Nothing special-cases the poles or the antimeridian: the haversine
/// formula is periodic in longitude, and vectors have no seams.
public enum GeoMath {
    /// Mean Earth radius (IUGG), metres.
    public static let earthRadius = 6_371_008.8

    static let radiansPerDegree = Double.pi / 180

    /// Haversine great-circle distance in metres.
    public static func distance(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) -> Double {
        let φ1 = latitude1 * radiansPerDegree
        let φ2 = latitude2 * radiansPerDegree
        let sinHalfΔφ = sin((φ2 - φ1) / 2)
        let sinHalfΔλ = sin((longitude2 - longitude1) * radiansPerDegree / 2)
        let a = min(1, max(0, sinHalfΔφ * sinHalfΔφ + cos(φ1) * cos(φ2) * sinHalfΔλ * sinHalfΔλ))
        return 2 * earthRadius * atan2(a.squareRoot(), (1 - a).squareRoot())
    }

    /// The unit vector of a position in degrees.
    public static func unitVector(latitude: Double, longitude: Double) -> SIMD3<Double> {
        let φ = latitude * radiansPerDegree
        let λ = longitude * radiansPerDegree
        let cosφ = cos(φ)
        return SIMD3(cosφ * cos(λ), cosφ * sin(λ), sin(φ))
    }

    /// Latitude and longitude in degrees of a (not necessarily unit) vector; longitude in [-180, 180].
    public static func coordinates(of vector: SIMD3<Double>) -> (latitude: Double, longitude: Double) {
        let horizontal = (vector.x * vector.x + vector.y * vector.y).squareRoot()
        return (atan2(vector.z, horizontal) / radiansPerDegree, atan2(vector.y, vector.x) / radiansPerDegree)
    }

    /// Great-circle distance in metres between two unit vectors, well conditioned at every angle.
    public static func distance(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
        let cross = SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
        let sine = (cross * cross).sum().squareRoot()
        return earthRadius * atan2(sine, (a * b).sum())
    }

    /// The squared straight-line (chord) length between unit vectors `meters` apart on the sphere;
    /// `.infinity` from half the circumference on, so every point is within; negative (nothing is
    /// within) for negative distances and NaN.
    public static func chordSquared(forDistance meters: Double) -> Double {
        chordSquared(forAngle: meters / earthRadius)
    }

    /// The squared chord length of a central angle in radians (`.infinity` from π on).
    static func chordSquared(forAngle angle: Double) -> Double {
        if angle >= .pi { return .infinity }
        guard angle > 0 else { return angle == 0 ? 0 : -1 }
        let halfChord = sin(angle / 2)
        return 4 * halfChord * halfChord
    }

    /// The central angle in radians of a squared chord length (π for `.infinity`).
    static func angle(forChordSquared chordSquared: Double) -> Double {
        guard chordSquared < 4 else { return .pi }
        return 2 * asin(max(0, chordSquared).squareRoot() / 2)
    }
}
