import Foundation
import GuardianShared
import GuardianTestSupport
@testable import GuardianTimeline
import Testing

@Suite("the timeline's store")
struct TimelineStoreTests {
    @Test("events to generate on from an instant start with the second-last fix at or before it, or twenty minutes before it if earlier: a ride's speed before a silence reads them")
    func eventsToGenerateOn() throws {
        let data = try TemporaryDirectory()
        let store = try TimelineStore(config: try GuardianConfig(environment: ["GUARDIAN_DATA_DIR": data.url.path]), logger: .quiet)
        let minute: Int64 = 60_000, from: Int64 = 1_795_000_000_000
        for offset: Int64 in [-40, -25, -15, -5, -1, 5] {
            try store.addLocation("d", ts: from + offset * minute, point: GeoPoint(lat: 52.52 + Double(offset) / 10_000, lon: 13.40))
        }
        try store.addMotion("d", ts: from - 30 * minute, activity: .stationary)
        try store.addMotion("d", ts: from + 2 * minute, activity: .cycling)
        let (motion, locations) = try store.events("d", from: from, until: from + 10 * minute)
        #expect(locations.map { ($0.timestamp - from) / minute } == [-15, -5, -1, 5])
        #expect(motion.map(\.activity) == [.stationary, .cycling])
        // Fixes far apart before the instant: from the second-last of them.
        let (_, sparse) = try store.events("d", from: from - 18 * minute, until: from - 18 * minute)
        #expect(sparse.map { ($0.timestamp - from) / minute } == [-40, -25])
    }
}
