import Foundation
@testable import GuardianTimeline
import Testing

/// The morning after a night: breakfast first, whatever the phone shows of it.
extension PersonDrawnSlotsTests {
    /// Wednesday: the phone still from midnight until a five-minute walk about the flat at `walk`
    /// (local minutes), still for an hour and a half, then out for a walk of half an hour and
    /// still until the night; `silent` (local minutes) a stretch with no motion events at all
    /// (the sensor quiet).
    func stillNight(until walk: Double, silent: Range<Double>? = nil) -> OfflineTimeline.DeviceEvents {
        var events = device([
            (.stationary, home, walk), (.walking, home, 5), (.stationary, home, 90), (.walking, home, 30),
            (.stationary, home, 1440 + 420 - walk - 125),
        ])
        if let silent {
            let from = utc("2026-11-18 00:00:00")
            events.motion.removeAll { silent.contains(Double($0.timestamp - from) / 60_000) }
        }
        return events
    }

    @Test("breakfast is the half hour after getting up: after the walk that ends the night, or after the usual hour when nothing shows it")
    func breakfastAfterGettingUp() throws {
        // A walk at 07:15 after a whole night, the phone then on a table until 10:49.
        let walked = try OfflineTimeline.days(device([
            (.stationary, home, 435), (.walking, home, 2), (.stationary, home, 212), (.walking, home, 2), (.stationary, home, 789),
        ]), timeZone: zone)
        let breakfast = try slot(at: "2026-11-18 07:30:00", in: walked)
        #expect(breakfast.category == .food)
        #expect(breakfast.start == utc("2026-11-18 07:17:00"))
        #expect(breakfast.end == utc("2026-11-18 07:47:00"))
        #expect(try slot(at: "2026-11-18 08:00:00", in: walked).category == .leisure)

        // Nothing until a walk at 10:30: up at the usual 08:00, breakfast until 08:30.
        let unseen = try OfflineTimeline.days(stillNight(until: 630), timeZone: zone)
        #expect(try slot(at: "2026-11-18 07:50:00", in: unseen).category == .sleep)
        let quiet = try slot(at: "2026-11-18 08:20:00", in: unseen)
        #expect(quiet.category == .food)
        #expect(quiet.start == utc("2026-11-18 08:00:00"))
        #expect(quiet.end == utc("2026-11-18 08:30:00"))
        #expect(try slot(at: "2026-11-18 08:40:00", in: unseen).category == .leisure)
    }

    @Test("up at the walk at 07:15, the phone off the charger three minutes later: breakfast goes on after that, half an hour from it")
    func breakfastGoesOnAfterTheCharger() throws {
        // On the charger from midnight; a walk at 07:15, the phone unplugged at 07:20, then on a table until 10:49.
        var events = device([(.stationary, home, 435), (.walking, home, 2), (.stationary, home, 212), (.walking, home, 2), (.stationary, home, 789)])
        events.charges = [
            ChargeEvent(timestamp: utc("2026-11-18 00:00:00"), charging: true), ChargeEvent(timestamp: utc("2026-11-18 07:20:00"), charging: false),
        ]
        let days = try OfflineTimeline.days(events, timeZone: zone)
        let breakfast = try slot(at: "2026-11-18 07:30:00", in: days)
        #expect(breakfast.category == .food, "\(breakfast)")
        #expect(breakfast.start == utc("2026-11-18 07:17:00"))
        #expect(breakfast.end == utc("2026-11-18 07:50:00"))
        #expect(try slot(at: "2026-11-18 08:00:00", in: days).category == .leisure)
    }

    @Test("a night the sensor falls silent in for 50 minutes is one stillness: the morning after the usual hour is still up")
    func silenceInTheNight() throws {
        let days = try OfflineTimeline.days(stillNight(until: 630, silent: 410..<460), timeZone: zone)
        #expect(try slot(at: "2026-11-18 05:00:00", in: days).category == .sleep)
        #expect(try slot(at: "2026-11-18 08:20:00", in: days).category == .food)
        #expect(try slot(at: "2026-11-18 08:45:00", in: days).category == .leisure)
    }
}
