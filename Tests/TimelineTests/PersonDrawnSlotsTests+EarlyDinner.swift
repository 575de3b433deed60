import Foundation
@testable import GuardianTimeline
import Testing

/// Dinner on working days for a person in bed early before them (`SlotContext.earlyBedtime`).
extension PersonDrawnSlotsTests {
    /// From Sunday 18:00 (2026-11-15): five school days (up at 07:00, at school 07:56–15:28, home
    /// at 15:44), each evening still at home from a walk at 17:00 until the walk to bed at `bedtime`
    /// (local minutes): the phone shows nothing of dinner.
    func schoolEvenings(bedtime: Double) throws -> [DayTimeline] {
        let night = 1440 - (bedtime + 2) + 7 * 60
        var pieces: [(MotionActivity, GeoPoint, Double)] = [(.stationary, home, bedtime - 18 * 60), (.walking, home, 2)]
        for _ in 0..<5 {
            pieces += [
                (.stationary, home, night), (.walking, home, 2), (.stationary, home, 38), (.walking, home, 16), (.stationary, school, 452),
                (.walking, school, 16), (.stationary, home, 76), (.walking, home, 2), (.stationary, home, bedtime - 17 * 60 - 2), (.walking, home, 2),
            ]
        }
        return try OfflineTimeline.days(device(pieces + [(.stationary, home, night), (.walking, home, 2), (.stationary, home, 30)], from: "2026-11-15 18:00:00"), timeZone: zone)
    }

    @Test("a child in bed by 21:00 on school nights, the phone showing nothing of dinner, has dinner at 18:30; in bed at 23:00, at 19:00")
    func earlyToBedEarlyDinner() throws {
        let child = try schoolEvenings(bedtime: 20 * 60 + 58)
        for day in ["16", "19", "20"] {
            let dinner = try slot(at: "2026-11-\(day) 18:45:00", in: child)
            #expect(dinner.category == .food && dinner.start == utc("2026-11-\(day) 18:30:00"), "\(dinner)")
            #expect(try slot(at: "2026-11-\(day) 19:15:00", in: child).category != .food)
        }
        let adult = try schoolEvenings(bedtime: 22 * 60 + 58)
        let dinner = try slot(at: "2026-11-19 19:15:00", in: adult)
        #expect(dinner.category == .food && dinner.start == utc("2026-11-19 19:00:00"), "\(dinner)")
        #expect(try slot(at: "2026-11-19 18:45:00", in: adult).category != .food)
    }
}
