import Foundation
@testable import GuardianTimeline
import Testing

/// A snack in the afternoon the phone shows on most days (`SlotContext.markSnacks`).
extension PersonDrawnSlotsTests {
    /// Four days from Wednesday, the phone on a table at home: up at 07:00, walks about the flat
    /// at 12:30 and 19:35, and in bed at 23:00; on the days in `snacks` (0 the first) also up at 15:30
    /// and again at 16:05.
    func afternoons(snacks: Set<Int>) -> OfflineTimeline.DeviceEvents {
        daysAtHome { day in
            let snack: [Double] = snacks.contains(day) ? [15 * 60 + 30, 16 * 60 + 5] : []
            return [7 * 60, 12 * 60 + 30] + snack + [19 * 60 + 35]
        }
    }

    @Test("up from the sofa at 15:30 and again at 16:05 on most afternoons: a snack, each of those days; on one afternoon of four it is no habit")
    func afternoonSnackHabit() throws {
        let habit = try OfflineTimeline.days(afternoons(snacks: [0, 1, 3]), timeZone: zone)
        for day in ["18", "19", "21"] {
            let snack = try slot(at: "2026-11-\(day) 15:50:00", in: habit)
            #expect(snack.category == .food)
            #expect(abs(snack.start - utc("2026-11-\(day) 15:32:00")) <= 2 * 60_000)
            #expect(try slot(at: "2026-11-\(day) 16:30:00", in: habit).category != .food)
        }
        #expect(try slot(at: "2026-11-20 15:50:00", in: habit).category != .food)

        let once = try OfflineTimeline.days(afternoons(snacks: [1]), timeZone: zone)
        #expect(try slot(at: "2026-11-19 15:50:00", in: once).category != .food)
    }
}
