import Foundation
import GuardianShared

/// The family's last known locations and the danger zones, drawn as an SVG on the server: an
/// equirectangular projection around the points (fine at a town's scale), with no map tiles unless
/// the user configured a tile server, so by default no outside server learns where the children are. A text list says the same for screen readers and
/// for reading without colour.
struct FamilyMap {
    /// What the `map` template draws; nil with no child located and no zone.
    let drawing: Drawing?

    struct Drawing {
        let width: String, height: String, tiles: [[String: String]], zones: [Mark], located: [Mark]
        let scaleY: String, scaleEnd: String, scaleLabelY: String, scaleLabel: String
        let whereabouts: [Whereabouts], zoneList: String
    }
    /// A circle with its label.
    struct Mark { let x: String, y: String, r: String, labelY: String, label: String }
    /// A child in the text list: where, when, in which zones.
    struct Whereabouts { let name: String, seen: Seen? }
    struct Seen { let position: String, ts: Timestamp, inside: String? }

    init(view: FamilyView, children: [Family.Child], tiles: MapTiles? = nil, width: Double = 640, height: Double = 400) {
        let located = children.compactMap { child in view.devices[child.deviceId]?.location.map { (child, $0) } }
        let zones = view.zones.sorted { $0.key < $1.key }.map(\.value)
        guard !located.isEmpty || !zones.isEmpty else {
            drawing = nil
            return
        }
        // Zones far from every child would shrink the map to nothing: with children located, keep the zones within 20 km.
        let shownZones = located.isEmpty ? zones : zones.filter { zone in located.contains { Self.distance($0.1.lat, $0.1.lon, zone.lat, zone.lon) < 20_000 } }
        let places = located.map { (lat: $0.1.lat, lon: $0.1.lon, radius: 0.0) } + shownZones.map { (lat: $0.lat, lon: $0.lon, radius: $0.radius) }
        let midLat = (places.map(\.lat).min()! + places.map(\.lat).max()!) / 2
        let metresPerDegreeLat = 111_320.0, metresPerDegreeLon = 111_320.0 * cos(midLat * .pi / 180)
        func metres(_ lat: Double, _ lon: Double) -> (x: Double, y: Double) { (lon * metresPerDegreeLon, lat * metresPerDegreeLat) }
        var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
        for place in places {
            let p = metres(place.lat, place.lon)
            minX = min(minX, p.x - place.radius); maxX = max(maxX, p.x + place.radius)
            minY = min(minY, p.y - place.radius); maxY = max(maxY, p.y + place.radius)
        }
        let margin = 56.0
        let spanX = max(maxX - minX, 400), spanY = max(maxY - minY, 400)
        let scale = min((width - 2 * margin) / spanX, (height - 2 * margin) / spanY)
        let centreX = (minX + maxX) / 2, centreY = (minY + maxY) / 2
        func point(_ lat: Double, _ lon: Double) -> (x: Double, y: Double) {
            let p = metres(lat, lon)
            return (width / 2 + (p.x - centreX) * scale, height / 2 - (p.y - centreY) * scale)
        }
        func latitude(_ y: Double) -> Double { ((height / 2 - y) / scale + centreY) / metresPerDegreeLat }
        func longitude(_ x: Double) -> Double { ((x - width / 2) / scale + centreX) / metresPerDegreeLon }
        let placed = (tiles?.cover(north: latitude(0), south: latitude(height), west: longitude(0), east: longitude(width), pixelsPerMetre: scale, point: point) ?? [])
            .map { ["url": $0.url, "x": Self.f($0.x), "y": Self.f($0.y), "width": Self.f($0.width), "height": Self.f($0.height)] }
        let zoneMarks = shownZones.map { zone in
            let c = point(zone.lat, zone.lon), r = max(zone.radius * scale, 4)
            return Mark(x: Self.f(c.x), y: Self.f(c.y), r: Self.f(r), labelY: Self.f(max(c.y - r - 8, 26)), label: zone.name)
        }
        let childMarks = located.map { child, location in
            let c = point(location.lat, location.lon)
            return Mark(x: Self.f(c.x), y: Self.f(c.y), r: "11", labelY: Self.f(c.y + 34), label: child.name)
        }
        let bar = Self.scaleBar(scale)
        let whereabouts = located.map { child, location in
            let inside = zones.filter { Self.distance(location.lat, location.lon, $0.lat, $0.lon) <= $0.radius }.map(\.name)
            let position = String(format: "%.5f, %.5f", location.lat, location.lon)
            return Whereabouts(name: child.name, seen: Seen(position: position, ts: location.ts, inside: inside.isEmpty ? nil : inside.joined(separator: ", ")))
        } + children.filter { view.devices[$0.deviceId]?.location == nil }.map { Whereabouts(name: $0.name, seen: nil) }
        drawing = Drawing(
            width: Self.f(width), height: Self.f(height), tiles: placed, zones: zoneMarks, located: childMarks,
            scaleY: Self.f(height - 16), scaleEnd: Self.f(16 + bar.pixels), scaleLabelY: Self.f(height - 26), scaleLabel: bar.label,
            whereabouts: whereabouts, zoneList: zones.isEmpty ? "none" : zones.map { "\($0.name) (\(Int($0.radius)) m)" }.joined(separator: ", "))
    }

    private static func scaleBar(_ scale: Double) -> (pixels: Double, label: String) {
        let steps = [50.0, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000]
        let metres = steps.last { $0 * scale <= 160 } ?? steps[0]
        return (metres * scale, metres >= 1000 ? "\(Int(metres / 1000)) km" : "\(Int(metres)) m")
    }

    private static func f(_ value: Double) -> String { String(format: "%.1f", value) }

    /// Metres between two points (haversine).
    private static func distance(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let r = 6_371_000.0, dLat = (lat2 - lat1) * .pi / 180, dLon = (lon2 - lon1) * .pi / 180
        let a = sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * .pi / 180) * cos(lat2 * .pi / 180) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * r * atan2(sqrt(a), sqrt(1 - a))
    }
}
