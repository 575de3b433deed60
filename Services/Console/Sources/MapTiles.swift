import Foundation

/// Map tiles from a server the user chose (`GUARDIAN_CONSOLE_TILE_URL`, e.g.
/// `https://tiles.example.org/{z}/{x}/{y}.png`), drawn under the family map. Off by default: with
/// tiles, the parent's browser tells that server which area it is looking at.
public struct MapTiles: Sendable, Equatable {
    /// The URL with `{z}`, `{x}` and `{y}` in it.
    public let template: String
    /// `scheme://host[:port]`, the one outside origin the page may load images from.
    public let origin: String

    /// Nil unless `template` is an http(s) URL naming `{z}`, `{x}` and `{y}`.
    public init?(template: String) {
        let probe = template.replacingOccurrences(of: "{z}", with: "0").replacingOccurrences(of: "{x}", with: "0")
            .replacingOccurrences(of: "{y}", with: "0")
        guard ["{z}", "{x}", "{y}"].allSatisfy(template.contains), let url = URL(string: probe),
            let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), let host = url.host, !host.isEmpty,
            !template.contains("\""), !template.contains("<"), !template.contains(" ")
        else { return nil }
        self.template = template
        origin = "\(scheme)://\(host)" + (url.port.map { ":\($0)" } ?? "")
    }

    /// One tile placed on the map: its address and where it goes, in the map's pixels.
    struct Placed: Equatable {
        var url: String
        var x: Double, y: Double, width: Double, height: Double
    }

    /// The tiles that cover the area from `south`-`west` to `north`-`east` at about 256 map pixels a
    /// tile, placed with the map's own projection `point`; none when that would take more than 64.
    func cover(
        north: Double, south: Double, west: Double, east: Double, pixelsPerMetre: Double, point: (Double, Double) -> (x: Double, y: Double)
    ) -> [Placed] {
        let midLat = (north + south) / 2
        let metresAroundEquator = 40_075_016.686
        let ideal = log2(metresAroundEquator * cos(midLat * .pi / 180) * pixelsPerMetre / 256)
        guard ideal.isFinite else { return [] }
        let zoom = Int(min(19, max(1, ideal.rounded())))
        let n = Double(1 << zoom)
        func column(_ lon: Double) -> Int { Int(floor((lon + 180) / 360 * n)) }
        func row(_ lat: Double) -> Int {
            let radians = min(max(lat, -85.05), 85.05) * .pi / 180
            return Int(floor((1 - asinh(tan(radians)) / .pi) / 2 * n))
        }
        func longitude(_ x: Int) -> Double { Double(x) / n * 360 - 180 }
        func latitude(_ y: Int) -> Double { atan(sinh(.pi * (1 - 2 * Double(y) / n))) * 180 / .pi }
        let columns = column(west)...column(east), rows = row(north)...row(south)
        guard columns.count * rows.count <= 64 else { return [] }
        return rows.flatMap { y in
            columns.map { x in
                let topLeft = point(latitude(y), longitude(x)), bottomRight = point(latitude(y + 1), longitude(x + 1))
                let url = template.replacingOccurrences(of: "{z}", with: "\(zoom)").replacingOccurrences(of: "{x}", with: "\(x)")
                    .replacingOccurrences(of: "{y}", with: "\(y)")
                return Placed(url: url, x: topLeft.x, y: topLeft.y, width: bottomRight.x - topLeft.x, height: bottomRight.y - topLeft.y)
            }
        }
    }
}
