import Foundation
@testable import GuardianTimeline
import Testing

/// A meal the phone shows nothing of, at the time the person's phone shows their meals at
/// (`SlotContext.ownMealStart`).
extension PersonDrawnSlotsTests {
    /// Four days from Wednesday, the phone on a table at home: up at 07:00, walks about the flat
    /// at 12:30 and 15:00, in bed at 23:00; on the days in `dinners` (0 the first) also up at
    /// 19:45 and again at 20:20 (dinner, shown whole); on the last day also at `lastEvening`.
    func evenings(dinners: Set<Int>, lastEvening: [Double] = []) -> OfflineTimeline.DeviceEvents {
        daysAtHome { day in
            let dinner: [Double] = dinners.contains(day) ? [19 * 60 + 45, 20 * 60 + 20] : []
            return [7 * 60, 12 * 60 + 30, 15 * 60] + dinner + (day == 3 ? lastEvening : [])
        }
    }

    @Test("dinner shown at 19:45 on three evenings: the evening that shows none has dinner at 19:45 too; shown on two, at 19:00")
    func ownDinnerTime() throws {
        let learned = try OfflineTimeline.days(evenings(dinners: [0, 1, 2]), timeZone: zone)
        let unseen = try slot(at: "2026-11-21 20:00:00", in: learned)
        #expect(unseen.category == .food)
        #expect(unseen.start == utc("2026-11-21 19:45:00"))
        #expect(unseen.end == utc("2026-11-21 20:20:00"))
        #expect(try slot(at: "2026-11-21 19:15:00", in: learned).category == .leisure)
        for day in ["18", "19", "20"] {
            #expect(abs(try slot(at: "2026-11-\(day) 20:00:00", in: learned).start - utc("2026-11-\(day) 19:47:00")) <= 2 * 60_000)
        }

        let tooFew = try OfflineTimeline.days(evenings(dinners: [0, 1]), timeZone: zone)
        let usual = try slot(at: "2026-11-21 19:10:00", in: tooFew)
        #expect(usual.category == .food)
        #expect(usual.start == utc("2026-11-21 19:00:00"))
        #expect(try slot(at: "2026-11-21 20:00:00", in: tooFew).category == .leisure)
    }

    @Test("after dinners shown at 19:45, getting up at 20:32 ends dinner (57 minutes from the usual 19:00, 12 from the person's own)")
    func ownDinnerEndedByGettingUp() throws {
        let learned = try OfflineTimeline.days(evenings(dinners: [0, 1, 2], lastEvening: [20 * 60 + 32]), timeZone: zone)
        let dinner = try slot(at: "2026-11-21 20:10:00", in: learned)
        #expect(dinner.category == .food)
        #expect(abs(dinner.start - utc("2026-11-21 19:57:00")) <= 2 * 60_000)
        #expect(try slot(at: "2026-11-21 19:30:00", in: learned).category == .leisure)

        // Without dinners seen, the same walk is one about the flat: dinner at the usual 19:00.
        let unlearned = try OfflineTimeline.days(evenings(dinners: [], lastEvening: [20 * 60 + 32]), timeZone: zone)
        #expect(try slot(at: "2026-11-21 20:10:00", in: unlearned).category == .leisure)
        #expect(try slot(at: "2026-11-21 19:10:00", in: unlearned).category == .food)
    }
}
