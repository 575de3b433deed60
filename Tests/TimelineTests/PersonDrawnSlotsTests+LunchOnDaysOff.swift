import Foundation
@testable import GuardianTimeline
import Testing

/// Lunch at home the phone shows nothing of, later on a day off (`SlotContext.lunchOnDaysOff`).
extension PersonDrawnSlotsTests {
    @Test("at home from Wednesday to Saturday, the phone on a table still from 10:30 to 15:00: lunch at 12:30 on a weekday, at 13:00 on Saturday")
    func lunchLaterOnSaturday() throws {
        let walks: [Double] = [7 * 60, 10 * 60 + 30, 15 * 60]
        let days = try OfflineTimeline.days(daysAtHome { _ in walks }, timeZone: zone)
        let thursday = try slot(at: "2026-11-19 12:45:00", in: days)
        #expect(thursday.category == .food && thursday.start == utc("2026-11-19 12:30:00"), "\(thursday)")
        #expect(try slot(at: "2026-11-19 13:15:00", in: days).category != .food)
        let saturday = try slot(at: "2026-11-21 13:15:00", in: days)
        #expect(saturday.category == .food && saturday.start == utc("2026-11-21 13:00:00") && saturday.end == utc("2026-11-21 13:35:00"), "\(saturday)")
        #expect(try slot(at: "2026-11-21 12:45:00", in: days).category != .food)
    }
}
