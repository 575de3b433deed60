import Foundation
@testable import GuardianTimeline
import Testing

@Suite("segmentation passes")
struct SegmentationPassTests {
    let table = SegmentationPass.standard

    @Test("the table holds the design's passes in its order")
    func standardTable() {
        #expect(table == [
            .merge(nil, under: 30 * minute),
            .drop([.stationary, .running, .cycling], under: 3 * minute),
            .merge(nil, under: 60 * minute),
            .drop([.walking], under: 3 * minute),
            .merge([.running, .cycling, .automotive], under: 180 * minute),
            .drop(nil, under: 5 * minute),
        ])
        #expect(table.map(\.description).first == "merge [all] < 30 min")
    }

    @Test("the brief's four events become a stay and a walk")
    func briefExample() {
        let motion = [
            MotionEvent(timestamp: utc("2017-12-21 07:10:22"), activity: .stationary),
            MotionEvent(timestamp: utc("2017-12-21 07:30:13"), activity: .stationary),
            MotionEvent(timestamp: utc("2017-12-21 08:00:34"), activity: .walking),
            MotionEvent(timestamp: utc("2017-12-21 08:45:03"), activity: .walking),
        ]
        let home = GeoPoint(lat: 40.4134539747987, lon: -3.72705138288785)
        let street = GeoPoint(lat: 40.4140156074618, lon: -3.72467680871441)
        let locations = [
            LocationEvent(timestamp: utc("2017-12-21 07:00:00"), location: home),
            LocationEvent(timestamp: utc("2017-12-21 08:45:03"), location: street),
        ]
        let until = utc("2017-12-21 09:00:00")
        // Pass 1 merges nothing (the second stay and the first walk last 30 min or more);
        // pass 3 merges each pair (all under an hour).
        let annotated = AnnotatedEvent.annotate(motion: motion, locations: locations, until: until)
        func m(_ minutes: Double, _ seconds: Double) -> Double { minutes + seconds / 60 }
        let afterPassOne: [(MotionActivity, Double, Double)] = [
            (.stationary, 0, m(19, 51)), (.stationary, m(19, 51), m(30, 21)),
            (.walking, m(50, 12), m(44, 29)), (.walking, m(94, 41), m(14, 57)),
        ]
        #expect(same(segment(annotated, [table[0]]), afterPassOne))
        let state = TimelineGenerator().rebuild(motion: motion, locations: locations, until: until).state
        #expect(state.slots == [
            TimeSlot(start: utc("2017-12-21 07:10:22"), activity: .stationary, location: home),
            TimeSlot(start: utc("2017-12-21 08:00:34"), activity: .walking, location: home),
        ])
        #expect(state.spans.map(\.end) == [utc("2017-12-21 08:00:34"), until])
    }

    @Test("merge under 30 min: same activity, both events under the threshold, chains merge whole")
    func mergeUnderHalfAnHour() {
        let input = events([(.stationary, 10), (.stationary, 20), (.stationary, 40), (.stationary, 5),
                            (.walking, 10), (.walking, 10), (.walking, 10), (.stationary, 29.9), (.walking, 29.9)])
        #expect(same(segment(input, [table[0]]), [
            (.stationary, 0, 30), (.stationary, 30, 40), (.stationary, 70, 5),
            (.walking, 75, 30), (.stationary, 105, 29.9), (.walking, 134.9, 29.9),
        ]))
    }

    @Test("drop still, run and cycling under 3 min: their time goes to the event before; a first one is discarded")
    func dropShortStillRunCycling() {
        let input = events([(.stationary, 2), (.walking, 10), (.stationary, 2.9), (.walking, 10), (.running, 1),
                            (.cycling, 2.5), (.automotive, 1), (.walking, 2), (.stationary, 3)])
        #expect(same(segment(input, [table[1]]), [
            (.walking, 2, 12.9), (.walking, 14.9, 13.5), (.automotive, 28.4, 1), (.walking, 29.4, 2), (.stationary, 31.4, 3),
        ]))
    }

    @Test("merge under 1 hour")
    func mergeUnderAnHour() {
        let input = events([(.stationary, 50), (.stationary, 40), (.stationary, 70), (.stationary, 10), (.automotive, 59), (.automotive, 59)])
        #expect(same(segment(input, [table[2]]), [(.stationary, 0, 90), (.stationary, 90, 70), (.stationary, 160, 10), (.automotive, 170, 118)]))
    }

    @Test("drop walks under 3 min: a short walk splits two stays of the same kind")
    func dropShortWalks() {
        let input = events([(.stationary, 30), (.walking, 2), (.stationary, 30), (.walking, 3), (.automotive, 10), (.walking, 1)])
        #expect(same(segment(input, [table[3]]), [(.stationary, 0, 32), (.stationary, 32, 30), (.walking, 62, 3), (.automotive, 65, 11)]))
        // Through pass 3 the walk keeps the stays apart; pass 4 then drops it.
        let stays = events([(.stationary, 20), (.walking, 2), (.stationary, 20)])
        #expect(same(segment(stays, Array(table[0...3])), [(.stationary, 0, 22), (.stationary, 22, 20)]))
    }

    @Test("merge run, cycling and auto under 3 hours, not stays")
    func mergeVehiclesUnderThreeHours() {
        let input = events([(.automotive, 100), (.automotive, 100), (.stationary, 100), (.stationary, 100),
                            (.cycling, 179), (.cycling, 10), (.running, 200), (.running, 10), (.walking, 100), (.walking, 100)])
        #expect(same(segment(input, [table[4]]), [
            (.automotive, 0, 200), (.stationary, 200, 100), (.stationary, 300, 100), (.cycling, 400, 189),
            (.running, 589, 200), (.running, 789, 10), (.walking, 799, 100), (.walking, 899, 100),
        ]))
    }

    @Test("drop everything under 5 min")
    func dropUnderFiveMinutes() {
        let input = events([(.automotive, 4), (.stationary, 30), (.automotive, 4.9), (.walking, 5), (.cycling, 1)])
        #expect(same(segment(input, [table[5]]), [(.stationary, 4, 34.9), (.walking, 38.9, 6)]))
    }

    @Test("all passes in order: a stop at the lights stays part of the drive, a trip to the kitchen splits the evening")
    func wholeTable() {
        let input = events([
            (.stationary, 25), (.stationary, 25), (.walking, 1), (.stationary, 20), (.walking, 4),
            (.automotive, 8), (.stationary, 1), (.automotive, 12), (.walking, 2), (.stationary, 240),
        ])
        #expect(same(segment(input, table), [(.stationary, 0, 51), (.stationary, 51, 24), (.automotive, 75, 23), (.stationary, 98, 240)]))
    }
}
