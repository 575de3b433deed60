import Foundation

/// A zone file in the brief's style, `[{merchant, lat, lng, regret_count}]`, read as danger zones:
/// `regretRate = regret_count / 100` clamped to [0, 1], radius 200 m unless the entry has `radius`,
/// and a zone id made from the merchant's name (`Tech Store` → `tech-store`, numbered when repeated).
public enum ZoneFile {
    struct Entry: Decodable {
        var merchant: String
        var lat: Double
        var lng: Double
        var regretCount: Int
        var radius: Double?
        var category: String?

        enum CodingKeys: String, CodingKey {
            case merchant, lat, lng, radius, category
            case regretCount = "regret_count"
        }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            merchant = try c.text(.merchant, maxLength: 128)
            lat = try c.number(.lat, in: -90...90)
            lng = try c.number(.lng, in: -180...180)
            regretCount = try c.optionalCount(.regretCount) ?? 0
            radius = try c.optionalNumber(.radius, in: 1...100_000)
            category = try c.optionalText(.category, maxLength: 64)
        }
    }

    /// The zones of a file, in file order, with their ids.
    public static func zones(from data: Data) throws(ContractViolation) -> [(id: String, zone: DangerZone)] {
        let entries: [Entry]
        do {
            entries = try JSONDecoder().decode([Entry].self, from: data)
        } catch {
            throw ContractViolation.from(error)
        }
        var used: [String: Int] = [:]
        return entries.map { entry in
            let base = slug(entry.merchant)
            used[base, default: 0] += 1
            let id = used[base]! == 1 ? base : String(base.prefix(60)) + "-\(used[base]!)"
            let zone = DangerZone(
                name: entry.merchant, lat: entry.lat, lon: entry.lng, radius: entry.radius ?? DangerZone.defaultRadius, merchant: entry.merchant,
                category: entry.category, regretRate: min(1, max(0, Double(entry.regretCount) / 100)), regretCount: entry.regretCount)
            return (id, zone)
        }
    }

    /// Lower-case letters and digits, other runs as `-`, at most 64 characters.
    public static func slug(_ name: String) -> String {
        var out = ""
        for scalar in name.lowercased().unicodeScalars {
            if scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar)) {
                out.unicodeScalars.append(scalar)
            } else if !out.isEmpty && !out.hasSuffix("-") {
                out += "-"
            }
        }
        while out.hasSuffix("-") { out.removeLast() }
        let trimmed = String(out.prefix(64))
        return trimmed.isEmpty ? "zone" : trimmed
    }
}
