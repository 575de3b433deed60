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

    @Test("a fix that changes no visit is stored only once a minute of device time has passed")
    func savingIsNeededOnlyForChanges() {
        let zones = catalog()
        var stored = DeviceVisits()
        #expect(stored.needsSaving(comparedTo: nil))
        _ = tracker.evaluate(Location(lat: 0, lon: -179.99), at: t0, state: &stored, zones: zones)
        stored.savedFix = stored.lastFix
        var next = stored
        _ = tracker.evaluate(Location(lat: 0, lon: -179.991), at: t0.adding(seconds: 30), state: &next, zones: zones)
        #expect(!next.needsSaving(comparedTo: stored))
        var later = next
        _ = tracker.evaluate(Location(lat: 0, lon: -179.992), at: t0.adding(seconds: 60), state: &later, zones: zones)
        #expect(later.needsSaving(comparedTo: next))
        var entering = next
        _ = tracker.evaluate(Location(lat: 0, lon: -179.9999), at: t0.adding(seconds: 31), state: &entering, zones: zones)
        #expect(entering.visits["a"] != nil && entering.needsSaving(comparedTo: next))
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
