import Foundation
@testable import GuardianTimeline
import Testing

/// The places a device stays at, learned from its stays.
extension PersonDrawnSlotsTests {
    func span(_ activity: MotionActivity, _ place: GeoPoint, from: String, to: String) -> SlotSpan {
        SlotSpan(slot: TimeSlot(start: utc("2026-11-18 \(from):00"), activity: activity, location: place), end: utc("2026-11-18 \(to):00"))
    }

    @Test("a visit is placed where its longest stay was: the afternoon at the office, begun with the café's stale fix, is at the office, and the office is work")
    func visitPlacedByItsLongestStay() {
        // 100 m north of the office's first fix; a café 260 m north of it, 160 m from this.
        let officeBack = GeoPoint(lat: office.lat + 100 / 111_195.0, lon: office.lon)
        let cafeNextDoor = GeoPoint(lat: office.lat + 260 / 111_195.0, lon: office.lon)
        let spans = [
            span(.stationary, home, from: "00:00", to: "07:40"), span(.automotive, home, from: "07:40", to: "08:05"),
            span(.stationary, office, from: "08:05", to: "12:22"), span(.walking, office, from: "12:22", to: "12:26"),
            // The café, then back at the office with no walk the data shows: its first stay holds the café's fix.
            span(.stationary, cafeNextDoor, from: "12:26", to: "13:05"), span(.stationary, officeBack, from: "13:05", to: "17:20"),
            span(.automotive, officeBack, from: "17:20", to: "17:45"), span(.stationary, home, from: "17:45", to: "23:59"),
        ]
        let places = DevicePlaces.learn(from: spans, timeZone: zone)
        #expect(places.kind(of: office) == .work)
        #expect(places.place(of: office) == places.place(of: officeBack))
    }
}
