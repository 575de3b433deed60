import Foundation
@testable import GuardianTimeline
import Testing

/// Walking about one place (a shop's aisles) apart from the walk there and back; a long walk is a walk.
extension PersonDrawnSlotsTests {
    /// Wednesday at home until 10:02, ten minutes' walk to a shop, eight stops along its aisles
    /// (no new fix) until 10:36, ten minutes' walk home.
    func tripToTheShop() -> OfflineTimeline.DeviceEvents {
        var pieces: [(MotionActivity, GeoPoint, Double)] = [(.stationary, home, 420), (.walking, home, 2), (.stationary, home, 180), (.walking, home, 10)]
        for _ in 0..<8 { pieces += [(.walking, shop, 2), (.stationary, shop, 1)] }
        pieces += [(.walking, shop, 10), (.stationary, home, 600)]
        return device(pieces)
    }

    /// The same, each stop with a fix of its own scattered up to 60 m about the shop, as indoor fixes are.
    func tripToTheShopScattered() -> OfflineTimeline.DeviceEvents {
        var pieces: [(MotionActivity, GeoPoint, Double)] = [(.stationary, home, 420), (.walking, home, 2), (.stationary, home, 180), (.walking, home, 10)]
        for stop in 0..<8 {
            let fix = GeoPoint(lat: shop.lat + Double(stop % 3 - 1) * 40 / 111_195.0, lon: shop.lon + Double(stop % 2) * 40 / 67_700.0)
            pieces += [(.walking, fix, 2), (.stationary, fix, 1)]
        }
        pieces += [(.walking, shop, 10), (.stationary, home, 600)]
        return device(pieces)
    }

    @Test("a trip to the shop is the walk there, shopping from the first fix at the shop (10:12) to the last stop, and the walk back; fixes scattered about the shop change nothing", arguments: [false, true])
    func shopAisles(scattered: Bool) throws {
        let days = try OfflineTimeline.days(scattered ? tripToTheShopScattered() : tripToTheShop(), timeZone: zone)
        let shopping = try slot(at: "2026-11-18 10:20:00", in: days)
        #expect(shopping.category == .shopping)
        #expect(shopping.start == utc("2026-11-18 10:12:00"))
        #expect(shopping.end == utc("2026-11-18 10:36:00"))
        #expect(try slot(at: "2026-11-18 10:05:00", in: days).category == .commute)
        #expect(try slot(at: "2026-11-18 10:40:00", in: days).category == .commute)
    }

    @Test("walking about a pitch for over an hour, running a sixth of it, is exercise; the same with no run, shopping")
    func runningAboutAPitch() throws {
        // Saturday: home until 09:30, a ten-minute walk there, then bouts of walking, running and
        // standing at the pitch (13 minutes each, 2 of them running) until 10:58, ten minutes back;
        // motion reported on each change only (and at the end).
        let pitch = GeoPoint(lat: shop.lat + 300 / 111_195.0, lon: shop.lon)
        func saturday(running: Bool) -> OfflineTimeline.DeviceEvents {
            var pieces: [(MotionActivity, GeoPoint, Double)] = [(.stationary, home, 570), (.walking, halfwayToTheShop, 10)]
            for _ in 0..<6 { pieces += [(.walking, pitch, 4), (running ? .running : .walking, pitch, 2), (.walking, pitch, 5), (.stationary, pitch, 2)] }
            var events = device(pieces + [(.walking, halfwayToTheShop, 10), (.stationary, home, 600)], from: "2026-11-21 00:00:00")
            let all = events.motion
            events.motion = all.indices.filter { $0 == 0 || $0 == all.count - 1 || all[$0 - 1].activity != all[$0].activity }.map { all[$0] }
            return events
        }
        let days = try OfflineTimeline.days(saturday(running: true), timeZone: zone)
        #expect(try slot(at: "2026-11-21 10:15:00", in: days).category == .exercise)
        #expect(try slot(at: "2026-11-21 10:50:00", in: days).category == .exercise)
        let walked = try OfflineTimeline.days(saturday(running: false), timeZone: zone)
        #expect(try slot(at: "2026-11-21 10:15:00", in: walked).category == .shopping)
    }

    @Test("a long morning walk with a few stops on the way is a walk, not shopping")
    func morningWalk() throws {
        var pieces: [(MotionActivity, GeoPoint, Double)] = [(.stationary, home, 420), (.walking, home, 2), (.stationary, home, 120)]
        for leg in 0..<10 {
            let point = GeoPoint(lat: 52.5200 + Double(leg) * 600 / 111_195.0, lon: 13.4050)
            pieces += [(.walking, point, 6), (.stationary, point, 1)]
        }
        pieces += [(.stationary, home, 600)]
        let days = try OfflineTimeline.days(device(pieces), timeZone: zone)
        #expect(try slot(at: "2026-11-18 09:30:00", in: days).category == .leisure)
        #expect(!days.flatMap(\.slots).contains { $0.category == .shopping })
    }

    @Test("walking the aisles on for eight minutes after the last stop (five minutes at the till), the fixes still at the shop: shopping until the last of them")
    func shopAislesAfterTheLastStop() throws {
        let aisle = GeoPoint(lat: shop.lat + 30 / 111_195.0, lon: shop.lon)
        var pieces: [(MotionActivity, GeoPoint, Double)] = [(.stationary, home, 420), (.walking, home, 2), (.stationary, home, 180), (.walking, home, 10)]
        for _ in 0..<7 { pieces += [(.walking, shop, 2), (.stationary, shop, 1)] }
        pieces += [(.walking, shop, 2), (.stationary, shop, 5)]
        // The aisles until 10:48 (fixes there at 10:40 and 10:44), home at 10:58.
        pieces += [(.walking, aisle, 4), (.walking, shop, 4), (.walking, halfwayToTheShop, 10), (.stationary, home, 600)]
        let days = try OfflineTimeline.days(device(pieces), timeZone: zone)
        #expect(try slot(at: "2026-11-18 10:37:00", in: days).category == .shopping)
        let shopping = try slot(at: "2026-11-18 10:42:00", in: days)
        #expect(shopping.category == .shopping)
        #expect(shopping.end == utc("2026-11-18 10:44:00"), "\(shopping)")
        #expect(try slot(at: "2026-11-18 10:52:00", in: days).category == .commute)
    }

    /// Wednesday at home until 10:02, a walk to the shop (a fix halfway at 10:08), `before` minutes walking
    /// about it (fixes at 10:12, and 30 m off at 10:17), six minutes at the till, and eight more
    /// minutes' walking about it (fixes at the till's end and 4 minutes later) before walking home.
    /// `astray`: the first fix after the till 150 m off (a fix's error), two minutes before the next at the shop.
    func oneStopAtTheShop(before: Double, astray: Bool = false) -> [(MotionActivity, GeoPoint, Double)] {
        let aisle = GeoPoint(lat: shop.lat + 30 / 111_195.0, lon: shop.lon)
        return [
            (.stationary, home, 420), (.walking, home, 2), (.stationary, home, 180), (.walking, home, 6), (.walking, halfwayToTheShop, 4),
            (.walking, shop, 5), (.walking, aisle, before - 5), (.stationary, shop, 6),
        ] + (astray ? [(.walking, GeoPoint(lat: shop.lat, lon: shop.lon + 150 / 67_700.0), 2), (.walking, aisle, 2)] : [(.walking, aisle, 4)]) + [
            (.walking, shop, 4), (.walking, halfwayToTheShop, 6), (.stationary, home, 600),
        ]
    }

    @Test("walking a shop's aisles for nine minutes before a single stop at the till and on after it: shopping from the first fix at the shop to the last, the walks there and back commuting; one fix astray changes nothing", arguments: [false, true])
    func shopAislesAroundOneStop(astray: Bool) throws {
        let days = try OfflineTimeline.days(device(oneStopAtTheShop(before: 9, astray: astray)), timeZone: zone)
        let shopping = try slot(at: "2026-11-18 10:14:00", in: days)
        #expect(shopping.category == .shopping)
        #expect(shopping.start == utc("2026-11-18 10:12:00"))
        #expect(try slot(at: "2026-11-18 10:24:00", in: days).category == .shopping)
        let after = try slot(at: "2026-11-18 10:29:00", in: days)
        #expect(after.category == .shopping)
        #expect(after.end == utc("2026-11-18 10:31:00"), "\(after)")
        #expect(try slot(at: "2026-11-18 10:05:00", in: days).category == .commute)
        #expect(try slot(at: "2026-11-18 10:38:00", in: days).category == .commute)
    }

    @Test("twenty minutes' walking about one place before a single short stop is a walk in a park, not shopping")
    func walkInTheParkBeforeABench() throws {
        let days = try OfflineTimeline.days(device(oneStopAtTheShop(before: 20)), timeZone: zone)
        #expect(!days.flatMap(\.slots).contains { $0.category == .shopping }, "\(days.flatMap(\.slots))")
    }

    @Test("two stops at a shop parted by five minutes in its aisles, after walking about it: shopping from the first fix there to the end of the second stop")
    func shopAislesBetweenTwoStops() throws {
        let aisle = GeoPoint(lat: shop.lat + 30 / 111_195.0, lon: shop.lon)
        let pieces: [(MotionActivity, GeoPoint, Double)] = [
            (.stationary, home, 420), (.walking, home, 2), (.stationary, home, 180), (.walking, home, 6), (.walking, halfwayToTheShop, 4),
            (.walking, shop, 5), (.walking, aisle, 4), (.stationary, shop, 6), (.walking, aisle, 5), (.stationary, shop, 6),
            (.walking, halfwayToTheShop, 10), (.stationary, home, 600),
        ]
        let days = try OfflineTimeline.days(device(pieces), timeZone: zone)
        let shopping = try slot(at: "2026-11-18 10:30:00", in: days)
        #expect(shopping.category == .shopping)
        #expect(shopping.start == utc("2026-11-18 10:12:00"), "\(shopping)")
        #expect(shopping.end == utc("2026-11-18 10:38:00"), "\(shopping)")
        #expect(try slot(at: "2026-11-18 10:40:00", in: days).category == .commute)
    }
}
