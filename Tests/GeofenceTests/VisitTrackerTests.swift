import Foundation
@testable import GuardianGeofence
import GuardianShared
import Testing

@Suite("visit rules without a broker")
struct VisitTrackerTests {
    let tracker = VisitTracker(settings: GeofenceSettings())
    let t0 = Timestamp(milliseconds: 1_795_000_000_000)

    func catalog() -> ZoneCatalog {
        var zones = ZoneCatalog()
        zones.upsert(id: "a", zone: DangerZone(name: "A", lat: 0, lon: 179.999, radius: 200))
        zones.upsert(id: "tiny", zone: DangerZone(name: "Tiny", lat: 89.9999, lon: 0, radius: 40))
        return zones
    }

    @Test("enter, dwell and exit across the antimeridian")
    func antimeridian() {
        var state = DeviceVisits()
        let zones = catalog()
        #expect(tracker.evaluate(Location(lat: 0, lon: -179.997), at: t0, state: &state, zones: zones) == .accepted([]))
        guard case .accepted(let entered) = tracker.evaluate(Location(lat: 0, lon: -179.9999), at: t0.adding(seconds: 10), state: &state, zones: zones)
        else { Issue.record("not accepted"); return }
        #expect(entered.map(\.type) == [.enter] && entered.first?.zoneId == "a")
        guard case .accepted(let dwelled) = tracker.evaluate(Location(lat: 0, lon: 179.9995), at: t0.adding(seconds: 400), state: &state, zones: zones)
        else { Issue.record("not accepted"); return }
        #expect(dwelled.map(\.type) == [.dwell])
        guard case .accepted(let left) = tracker.evaluate(Location(lat: 0.01, lon: 179.999), at: t0.adding(seconds: 500), state: &state, zones: zones)
        else { Issue.record("not accepted"); return }
        #expect(left.map(\.type) == [.exit] && left.first?.dwellSeconds == 490)
    }

    @Test("a small zone at the pole uses a quarter of its radius as margin")
    func pole() {
        var state = DeviceVisits()
        guard case .accepted(let steps) = tracker.evaluate(Location(lat: 90, lon: 123), at: t0, state: &state, zones: catalog())
        else { Issue.record("not accepted"); return }
        #expect(steps.map(\.zoneId) == ["tiny"])
    }

    @Test("inaccurate, stale and repeated fixes change nothing")
    func ignored() {
        var state = DeviceVisits()
        let zones = catalog()
        #expect(tracker.evaluate(Location(lat: 0, lon: 179.999, acc: 150), at: t0, state: &state, zones: zones) == .inaccurate)
        #expect(state == DeviceVisits())
        _ = tracker.evaluate(Location(lat: 0, lon: 179.999), at: t0, state: &state, zones: zones)
        let before = state
        #expect(tracker.evaluate(Location(lat: 1, lon: 1), at: t0, state: &state, zones: zones) == .outOfOrder)
        #expect(tracker.evaluate(Location(lat: 1, lon: 1), at: t0.adding(seconds: -1), state: &state, zones: zones) == .outOfOrder)
        #expect(state == before)
    }
}
