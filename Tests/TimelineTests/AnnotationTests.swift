import Foundation
@testable import GuardianTimeline
import Testing

@Suite("annotating motion with location")
struct AnnotationTests {
    let home = GeoPoint(lat: 40.4134539747987, lon: -3.72705138288785)
    let street = GeoPoint(lat: 40.4140156074618, lon: -3.72467680871441)

    @Test("a stay goes on somewhere else from a fix far away that the next fix confirms: motion missed the way there; a lone outlier moves nothing")
    func movedUnseen() {
        let school = GeoPoint(lat: home.lat + 0.0135, lon: home.lon), outlier = GeoPoint(lat: home.lat, lon: home.lon + 0.0106)  // 1.5 km north, 900 m east
        let schoolGate = GeoPoint(lat: school.lat, lon: school.lon + 0.0005)  // 40 m on
        let minute: Int64 = 60_000
        let motion = [MotionEvent(timestamp: 0, activity: .stationary), MotionEvent(timestamp: 180 * minute, activity: .walking)]
        let locations = [
            LocationEvent(timestamp: 0, location: home), LocationEvent(timestamp: 30 * minute, location: outlier),
            LocationEvent(timestamp: 35 * minute, location: home), LocationEvent(timestamp: 100 * minute, location: school),
            LocationEvent(timestamp: 130 * minute, location: schoolGate),
        ]
        let annotated = AnnotatedEvent.annotate(motion: motion, locations: locations, until: 200 * minute)
        #expect(annotated == [
            AnnotatedEvent(start: 0, end: 100 * minute, activity: .stationary, location: home),
            AnnotatedEvent(start: 100 * minute, end: 180 * minute, activity: .stationary, location: school),
            AnnotatedEvent(start: 180 * minute, end: 200 * minute, activity: .walking, location: schoolGate),
        ])
    }

    @Test("a ride whose report of stopping was lost (a gap) is a stay from the first of the fixes that stay put 15 minutes far from where it began; fixes stuck where it began are stale, and 10 minutes put is a stop in traffic")
    func rideStoppedUnseen() {
        let minute: Int64 = 60_000
        let office = GeoPoint(lat: home.lat + 0.036, lon: home.lon)  // 4 km north
        let officeDoor = GeoPoint(lat: office.lat + 0.0003, lon: office.lon)  // 33 m on
        let onTheWay = GeoPoint(lat: home.lat + 0.009, lon: home.lon)  // 1 km north
        let motion = [
            MotionEvent(timestamp: 0, activity: .stationary), MotionEvent(timestamp: 60 * minute, activity: .cycling),
            MotionEvent(timestamp: 180 * minute, activity: .walking), MotionEvent(timestamp: 181 * minute, activity: .stationary),
        ]
        func annotated(_ stops: [Int64], at place: GeoPoint, door: GeoPoint) -> [AnnotatedEvent] {
            let fixes = [LocationEvent(timestamp: 0, location: home), LocationEvent(timestamp: 65 * minute, location: onTheWay)]
                + stops.enumerated().map { LocationEvent(timestamp: $0.element * minute, location: $0.offset % 2 == 0 ? place : door) }
            return AnnotatedEvent.annotate(motion: motion, locations: fixes, until: 240 * minute)
        }
        #expect(annotated([130, 141, 171], at: office, door: officeDoor) == [
            AnnotatedEvent(start: 0, end: 60 * minute, activity: .stationary, location: home),
            AnnotatedEvent(start: 60 * minute, end: 130 * minute, activity: .cycling, location: home),
            AnnotatedEvent(start: 130 * minute, end: 180 * minute, activity: .stationary, location: office),
            AnnotatedEvent(start: 180 * minute, end: 181 * minute, activity: .walking, location: office),
            AnnotatedEvent(start: 181 * minute, end: 240 * minute, activity: .stationary, location: office),
        ])
        // Stuck where the ride began (the fix at 65 minutes left out): stale, the ride goes on.
        let stale = AnnotatedEvent.annotate(
            motion: motion, locations: [LocationEvent(timestamp: 0, location: home)] + [70, 85, 100].map { LocationEvent(timestamp: $0 * minute, location: home) },
            until: 240 * minute)
        #expect(stale.map(\.activity) == [.stationary, .cycling, .walking, .stationary])
        // Ten minutes at a junction, then on: no stay.
        #expect(annotated([130, 140], at: office, door: officeDoor).map(\.activity) == [.stationary, .cycling, .walking, .stationary])
    }

    @Test("a walk with no report after it for an hour, no fix during it and the fixes either side at home, was a short one: the phone lay still; with a fix during it, or the next one away, it was a walk")
    func walkEndedUnseen() {
        let minute: Int64 = 60_000
        let park = GeoPoint(lat: home.lat + 0.009, lon: home.lon)  // 1 km north
        let motion = [
            MotionEvent(timestamp: 0, activity: .stationary), MotionEvent(timestamp: 60 * minute, activity: .walking),
            MotionEvent(timestamp: 128 * minute, activity: .stationary),
        ]
        func annotated(_ fixes: [(Int64, GeoPoint)]) -> [AnnotatedEvent] {
            AnnotatedEvent.annotate(motion: motion, locations: fixes.map { LocationEvent(timestamp: $0.0 * minute, location: $0.1) }, until: 240 * minute)
        }
        #expect(annotated([(0, home), (135, home)]) == [
            AnnotatedEvent(start: 0, end: 60 * minute, activity: .stationary, location: home),
            AnnotatedEvent(start: 60 * minute, end: 63 * minute, activity: .walking, location: home),
            AnnotatedEvent(start: 63 * minute, end: 128 * minute, activity: .stationary, location: home),
            AnnotatedEvent(start: 128 * minute, end: 240 * minute, activity: .stationary, location: home),
        ])
        let walkEnd = { (fixes: [(Int64, GeoPoint)]) in annotated(fixes).first { $0.activity == .walking }?.end }
        #expect(walkEnd([(0, home), (90, park), (135, home)]) == 128 * minute)
        #expect(walkEnd([(0, home), (135, park)]) == 128 * minute)
        // Twenty minutes without a report is still a walk.
        let short = AnnotatedEvent.annotate(
            motion: [MotionEvent(timestamp: 0, activity: .stationary), MotionEvent(timestamp: 60 * minute, activity: .walking), MotionEvent(timestamp: 80 * minute, activity: .stationary)],
            locations: [LocationEvent(timestamp: 0, location: home), LocationEvent(timestamp: 135 * minute, location: home)], until: 240 * minute)
        #expect(short.first { $0.activity == .walking }?.end == 80 * minute)
    }

    @Test("a ride whose fixes fall silent for an hour and then show the phone put at work arrived when the way there at its speed would: a stay from then; with fixes moving on after, or a shorter silence, the ride goes on")
    func rideArrivedUnseen() {
        let minute: Int64 = 60_000
        // Cycling north from home at 4 m/s (480 m every two minutes), then silent from 8 minutes
        // on until a fix 3.6 km further north at 70 minutes: there at 23 minutes.
        let metre = 1 / 111_195.0
        func north(_ metres: Double) -> GeoPoint { GeoPoint(lat: home.lat + metres * metre, lon: home.lon) }
        let way = (0...4).map { LocationEvent(timestamp: Int64($0) * 2 * minute, location: north(Double($0) * 480)) }
        let motion = [MotionEvent(timestamp: 0, activity: .cycling), MotionEvent(timestamp: 100 * minute, activity: .walking)]
        func annotated(_ later: [(Int64, Double)]) -> [AnnotatedEvent] {
            AnnotatedEvent.annotate(motion: motion, locations: way + later.map { LocationEvent(timestamp: $0.0 * minute, location: north($0.1)) }, until: 120 * minute)
        }
        let arrived = annotated([(70, 5_520), (85, 5_540)])
        #expect(arrived.map(\.activity) == [.cycling, .stationary, .stationary, .walking])
        #expect(abs(arrived[0].end - 23 * minute) < minute)
        #expect(arrived[1].location == north(5_520) && arrived[2].end == 100 * minute)
        // Fixes moving on after the silence (a train out of a tunnel): still the ride.
        #expect(annotated([(70, 5_520), (85, 9_000)]).map(\.activity) == [.cycling, .walking])
        // Seventeen minutes without a fix: no silence.
        #expect(annotated([(25, 5_520)]).map(\.activity) == [.cycling, .walking])
    }

    @Test("a fix 250 m off between two at home while the phone lies still is dropped (one stay event is enough); with a walk between, far from one side only, or no motion known at the first, it is kept")
    func strayFixes() {
        let minute: Int64 = 60_000
        let off = GeoPoint(lat: home.lat, lon: home.lon + 250 / 84_800.0)
        let fixes = [
            LocationEvent(timestamp: 0, location: home), LocationEvent(timestamp: 30 * minute, location: off),
            LocationEvent(timestamp: 60 * minute, location: home),
        ]
        let still = [MotionEvent(timestamp: 0, activity: .stationary), MotionEvent(timestamp: 40 * minute, activity: .stationary)]
        #expect(AnnotatedEvent.withoutStrays(fixes, motion: still) == [fixes[0], fixes[2]])
        let walk = still + [MotionEvent(timestamp: 45 * minute, activity: .walking), MotionEvent(timestamp: 50 * minute, activity: .stationary)]
        #expect(AnnotatedEvent.withoutStrays(fixes, motion: walk) == fixes)
        var onward = fixes
        onward[2].location = off
        #expect(AnnotatedEvent.withoutStrays(onward, motion: still) == onward)
        #expect(AnnotatedEvent.withoutStrays(fixes, motion: [MotionEvent(timestamp: 0, activity: .stationary)]) == [fixes[0], fixes[2]])
        #expect(AnnotatedEvent.withoutStrays(fixes, motion: [MotionEvent(timestamp: 10 * minute, activity: .stationary)]) == fixes)
    }

    @Test("each event takes the latest location at or before it; unknown motion is dropped first")
    func annotate() {
        let motion = [
            MotionEvent(timestamp: 1_000, activity: .stationary),
            MotionEvent(timestamp: 5_000, activity: .unknown),
            MotionEvent(timestamp: 8_000, activity: .walking),
            MotionEvent(timestamp: 12_000, activity: .walking),
            MotionEvent(timestamp: 30_000, activity: .automotive),
        ]
        let locations = [
            LocationEvent(timestamp: 2_000, location: home),
            LocationEvent(timestamp: 12_000, location: street),
        ]
        let annotated = AnnotatedEvent.annotate(motion: motion.reversed(), locations: locations, until: 20_000)
        #expect(annotated == [
            AnnotatedEvent(start: 1_000, end: 8_000, activity: .stationary, location: nil),
            AnnotatedEvent(start: 8_000, end: 12_000, activity: .walking, location: home),
            AnnotatedEvent(start: 12_000, end: 20_000, activity: .walking, location: street),
        ])
    }

    @Test("a stay arrived at takes its own first fix when it comes within minutes, not the one from the way there")
    func arrivalFix() {
        let motion = [
            MotionEvent(timestamp: 0, activity: .walking),
            MotionEvent(timestamp: 60_000, activity: .stationary),
            MotionEvent(timestamp: 600_000, activity: .walking),
            MotionEvent(timestamp: 660_000, activity: .stationary),
        ]
        let locations = [
            LocationEvent(timestamp: 0, location: home),
            LocationEvent(timestamp: 150_000, location: street),  // 1.5 minutes after stopping
        ]
        let annotated = AnnotatedEvent.annotate(motion: motion, locations: locations, until: 1_200_000)
        #expect(annotated.map(\.location) == [home, street, street, street])
    }

    @Test("a stay arrived at whose stillness is reported twice (stationary at medium confidence, then at high) takes its own first fix for both reports, not the one from the way there")
    func arrivalFixAcrossReports() {
        let motion = [
            MotionEvent(timestamp: 0, activity: .cycling),
            MotionEvent(timestamp: 60_000, activity: .stationary),
            MotionEvent(timestamp: 120_000, activity: .stationary),  // the same stillness, reported again
            MotionEvent(timestamp: 900_000, activity: .walking),
        ]
        let locations = [
            LocationEvent(timestamp: 0, location: home),
            LocationEvent(timestamp: 150_000, location: street),  // 1.5 minutes after stopping, after the second report
        ]
        let annotated = AnnotatedEvent.annotate(motion: motion, locations: locations, until: 1_200_000)
        #expect(annotated.map(\.location) == [home, street, street, street])
    }

    @Test("one event per millisecond, in a fixed order")
    func duplicates() {
        let motion = [MotionEvent(timestamp: 0, activity: .walking), MotionEvent(timestamp: 0, activity: .stationary), MotionEvent(timestamp: 0, activity: .walking)]
        let annotated = AnnotatedEvent.annotate(motion: motion, locations: [], until: 60_000)
        #expect(annotated == [AnnotatedEvent(start: 0, end: 60_000, activity: .stationary, location: nil)])
    }
}
