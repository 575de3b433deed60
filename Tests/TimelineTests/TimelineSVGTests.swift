import Foundation
@testable import GuardianTimeline
import GuardianTimelineEvaluation
import Testing

@Suite("day drawing")
struct TimelineSVGTests {
    @Test("a bar per slot, coloured by category, with local times")
    func bars() throws {
        let zone = TimeZone(identifier: "America/New_York")!
        let month = SyntheticMonth(firstDay: "2026-06-01", days: 2, timeZone: zone, seed: 3)
        var state = TimelineGenerator().rebuild(motion: month.motion, locations: month.locations, until: month.end).state
        for index in state.slots.indices {
            state.slots[index].category = month.category(from: state.spans[index].start, to: state.spans[index].end)
            state.slots[index].confidence = 0.8
        }
        let day = try #require(DayTimeline.days(of: state, timeZone: zone).first { $0.date == "2026-06-01" })
        let svg = TimelineSVG().render(day)
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.hasSuffix("</svg>\n"))
        #expect(svg.components(separatedBy: "<rect x=").count - 1 == day.slots.count)
        #expect(svg.contains("fill=\"\(TimelineSVG.colors[.sleep]!)\""))
        #expect(svg.contains("fill=\"\(TimelineSVG.colors[.work]!)\""))
        #expect(svg.contains("2026-06-01 (America/New_York)"))
        #expect(svg.contains(">00:00–"))
        try svg.write(toFile: FileManager.default.temporaryDirectory.appendingPathComponent("timeline-2026-06-01.svg").path, atomically: true, encoding: .utf8)
    }
}
