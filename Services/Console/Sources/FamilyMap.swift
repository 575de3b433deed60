import Foundation
import GuardianShared

/// The family's last known locations and the danger zones, drawn as an SVG on the server: an
/// equirectangular projection around the points (fine at a town's scale), with no map tiles unless
/// the user configured a tile server, so by default no outside server learns where the children are. A text list says the same for screen readers and
/// for reading without colour.
struct FamilyMap {
    let view: FamilyView
    let children: [Family.Child]
    var tiles: MapTiles? = nil
    var width = 640.0
    var height = 400.0

    private struct Place {
        var label: String
        var lat: Double
        var lon: Double
        var radius: Double
    }

    func render() -> String {
        let located = children.compactMap { child in view.devices[child.deviceId]?.location.map { (child, $0) } }
        let zones = view.zones.sorted { $0.key < $1.key }.map(\.value)
        guard !located.isEmpty || !zones.isEmpty else { return "<p class=\"empty\">No location yet: a child’s position appears when their device next reports it.</p>" }
        // Zones far from every child would shrink the map to nothing: with children located, keep the zones within 20 km.
        let shownZones = located.isEmpty ? zones : zones.filter { zone in located.contains { distance($0.1.lat, $0.1.lon, zone.lat, zone.lon) < 20_000 } }
        let places = located.map { Place(label: $0.0.name, lat: $0.1.lat, lon: $0.1.lon, radius: 0) }
            + shownZones.map { Place(label: $0.name, lat: $0.lat, lon: $0.lon, radius: $0.radius) }
        let midLat = (places.map(\.lat).min()! + places.map(\.lat).max()!) / 2
        let metresPerDegreeLat = 111_320.0, metresPerDegreeLon = 111_320.0 * cos(midLat * .pi / 180)
        func metres(_ place: (lat: Double, lon: Double)) -> (x: Double, y: Double) { (place.lon * metresPerDegreeLon, place.lat * metresPerDegreeLat) }
        var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
        for place in places {
            let p = metres((place.lat, place.lon))
            minX = min(minX, p.x - place.radius); maxX = max(maxX, p.x + place.radius)
            minY = min(minY, p.y - place.radius); maxY = max(maxY, p.y + place.radius)
        }
        let margin = 56.0
        let spanX = max(maxX - minX, 400), spanY = max(maxY - minY, 400)
        let scale = min((width - 2 * margin) / spanX, (height - 2 * margin) / spanY)
        let centreX = (minX + maxX) / 2, centreY = (minY + maxY) / 2
        func point(_ lat: Double, _ lon: Double) -> (x: Double, y: Double) {
            let p = metres((lat, lon))
            return (width / 2 + (p.x - centreX) * scale, height / 2 - (p.y - centreY) * scale)
        }
        var svg = "<svg class=\"map\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(f(width)) \(f(height))\" role=\"img\" aria-labelledby=\"map-caption\">"
        svg += "<title id=\"map-caption\">Map of the children’s last known locations and the danger zones</title>"
        svg += "<rect width=\"100%\" height=\"100%\" class=\"map-ground\"/>"
        if let tiles {
            func latitude(_ y: Double) -> Double { ((height / 2 - y) / scale + centreY) / metresPerDegreeLat }
            func longitude(_ x: Double) -> Double { ((x - width / 2) / scale + centreX) / metresPerDegreeLon }
            let placed = tiles.cover(
                north: latitude(0), south: latitude(height), west: longitude(0), east: longitude(width), pixelsPerMetre: scale, point: point)
            for tile in placed {
                svg += "<image class=\"tile\" href=\"\(HTML.escape(tile.url))\" x=\"\(f(tile.x))\" y=\"\(f(tile.y))\" width=\"\(f(tile.width))\" height=\"\(f(tile.height))\" preserveAspectRatio=\"none\"/>"
            }
        }
        for zone in shownZones {
            let c = point(zone.lat, zone.lon)
            let r = max(zone.radius * scale, 4)
            svg += "<g class=\"zone\"><circle cx=\"\(f(c.x))\" cy=\"\(f(c.y))\" r=\"\(f(r))\"/>"
            svg += "<text x=\"\(f(c.x))\" y=\"\(f(max(c.y - r - 8, 26)))\" text-anchor=\"middle\">⚠ \(HTML.escape(zone.name))</text></g>"
        }
        for (child, location) in located {
            let c = point(location.lat, location.lon)
            svg += "<g class=\"child\"><circle cx=\"\(f(c.x))\" cy=\"\(f(c.y))\" r=\"11\"/>"
            svg += "<text x=\"\(f(c.x))\" y=\"\(f(c.y + 34))\" text-anchor=\"middle\">\(HTML.escape(child.name))</text></g>"
        }
        let bar = scaleBar(scale)
        svg += "<g class=\"scale\"><line x1=\"16\" y1=\"\(f(height - 16))\" x2=\"\(f(16 + bar.pixels))\" y2=\"\(f(height - 16))\"/>"
        svg += "<text x=\"16\" y=\"\(f(height - 26))\">\(bar.label)</text></g></svg>"
        var list = "<ul class=\"map-list\">"
        for (child, location) in located {
            let inside = zones.filter { distance(location.lat, location.lon, $0.lat, $0.lon) <= $0.radius }.map(\.name)
            list += "<li><strong>\(HTML.escape(child.name))</strong>: \(String(format: "%.5f, %.5f", location.lat, location.lon)) at \(HTML.time(location.ts))"
            list += inside.isEmpty ? "" : ", <strong>inside danger zone \(HTML.escape(inside.joined(separator: ", ")))</strong>"
            list += "</li>"
        }
        for child in children where view.devices[child.deviceId]?.location == nil {
            list += "<li><strong>\(HTML.escape(child.name))</strong>: no location since you signed in</li>"
        }
        list += "<li>Danger zones: \(zones.isEmpty ? "none" : zones.map { "\(HTML.escape($0.name)) (\(Int($0.radius)) m)" }.joined(separator: ", "))</li></ul>"
        return "<div class=\"map-frame\">\(svg)</div>\(list)"
    }

    private func scaleBar(_ scale: Double) -> (pixels: Double, label: String) {
        let steps = [50.0, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000]
        let metres = steps.last { $0 * scale <= 160 } ?? steps[0]
        return (metres * scale, metres >= 1000 ? "\(Int(metres / 1000)) km" : "\(Int(metres)) m")
    }

    private func f(_ value: Double) -> String { String(format: "%.1f", value) }

    /// Metres between two points (haversine).
    private func distance(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let r = 6_371_000.0, dLat = (lat2 - lat1) * .pi / 180, dLon = (lon2 - lon1) * .pi / 180
        let a = sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * .pi / 180) * cos(lat2 * .pi / 180) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * r * atan2(sqrt(a), sqrt(1 - a))
    }
}
