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

    /// One walk on the last evening (local minutes: 20:32, 19:40), after dinners shown at 19:45 (`learned`) or
    /// none: the dinner drawn (start and end, local "HH:mm", ±2 minutes) and a time that is not dinner.
    @Test("one walk at dinner time with the phone on a table: the dinner it ends or begins, nearest the person's own time once learned", arguments: [
        (1232.0, true, "19:57", "20:32", "19:30"),  // 12 minutes from the own 19:45 as an end, 57 from the usual 19:00
        (1232.0, false, "19:00", "19:35", "20:10"),  // a walk about the flat: dinner at the usual time
        (1180.0, true, "19:42", "20:17", "19:20"),  // begins dinner: 3 minutes from the own time as a start, 40 as an end
        (1180.0, false, "19:05", "19:40", "19:50"),  // before any dinner is shown, getting up ends one
    ])
    func oneWalkAtDinnerTime(walk: Double, learned: Bool, start: String, end: String, notDinner: String) throws {
        let days = try OfflineTimeline.days(evenings(dinners: learned ? [0, 1, 2] : [], lastEvening: [walk]), timeZone: zone)
        let (from, to) = (utc("2026-11-21 \(start):00"), utc("2026-11-21 \(end):00"))
        let dinner = try #require(days.flatMap(\.slots).first { $0.start <= (from + to) / 2 && (from + to) / 2 < $0.end })
        #expect(dinner.category == .food)
        #expect(abs(dinner.start - from) <= 2 * 60_000 && abs(dinner.end - to) <= 2 * 60_000)
        #expect(try slot(at: "2026-11-21 \(notDinner):00", in: days).category == .leisure)
    }
}
