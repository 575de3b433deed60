import Foundation
import GuardianShared
import Testing

@Suite("Brief-style zone files")
struct ZoneFileTests {
    @Test func importsWithRegretRateAndIds() throws {
        let json = #"""
            [{"merchant": "Tech Store", "lat": 40.43, "lng": -79.95, "regret_count": 82},
             {"merchant": "Tech Store", "lat": 40.44, "lng": -79.96, "regret_count": 150, "radius": 500},
             {"merchant": "Café Müller & Co.", "lat": 0, "lng": 0, "regret_count": 0}]
            """#
        let zones = try ZoneFile.zones(from: Data(json.utf8))
        #expect(zones.map(\.id) == ["tech-store", "tech-store-2", "caf-m-ller-co"])
        #expect(zones[0].zone == DangerZone(name: "Tech Store", lat: 40.43, lon: -79.95, radius: 200, merchant: "Tech Store", regretRate: 0.82, regretCount: 82))
        #expect(zones[1].zone.regretRate == 1 && zones[1].zone.radius == 500)
        #expect(zones.allSatisfy { Identifier.isValid($0.id) })
    }

    @Test func rejectsBadFiles() {
        #expect(throws: ContractViolation.self) { try ZoneFile.zones(from: Data(#"[{"merchant": "x", "lat": 100, "lng": 0}]"#.utf8)) }
        #expect(throws: ContractViolation.self) { try ZoneFile.zones(from: Data(#"{"merchant": "x"}"#.utf8)) }
        #expect(throws: ContractViolation.self) { try ZoneFile.zones(from: Data(#"[{"lat": 1, "lng": 0}]"#.utf8)) }
    }

    @Test func slugs() {
        #expect(ZoneFile.slug("  Late-Night  Deli!! ") == "late-night-deli")
        #expect(ZoneFile.slug("###") == "zone")
        #expect(ZoneFile.slug(String(repeating: "a", count: 100)).count == 64)
    }
}
