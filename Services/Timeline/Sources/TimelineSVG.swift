import Foundation

/// Draws a local day as SVG: an hour axis, then one row per slot with its local times,
/// category and a bar across the hours it covers, coloured by category.
public struct TimelineSVG: Sendable {
    public var width = 760.0
    public var rowHeight = 22.0
    public var labelWidth = 230.0
    /// Each slot's label on a line of its own above its bar, the bars as wide as the chart.
    public var labelsAbove = false

    public init() {}

    /// The whole day on a phone (340 px): labels above the bars.
    public static let narrow: TimelineSVG = {
        var chart = TimelineSVG()
        chart.width = 340
        chart.labelsAbove = true
        return chart
    }()

    public static let colors: [TimelineCategory: String] = [
        .sleep: "#5b6c9a", .work: "#c0504d", .food: "#f2a93b", .commute: "#8c8c8c", .family: "#d77fb3",
        .leisure: "#4fa3a5", .shopping: "#9b6fcf", .exercise: "#6aaf4c", .unknown: "#d0d0d0",
    ]

    public func render(_ day: DayTimeline) -> String {
        let zone = TimeZone(identifier: day.timezone) ?? .gmt
        let top = 48.0, chartLeft = labelsAbove ? 8 : labelWidth, chartWidth = width - chartLeft - (labelsAbove ? 8 : 12)
        let labelLine = labelsAbove ? 15.0 : 0, rowHeight = self.rowHeight + labelLine
        let length = Double(max(day.dayEnd - day.dayStart, 1))
        func x(_ instant: Int64) -> Double { chartLeft + chartWidth * Double(instant - day.dayStart) / length }
        func clock(_ instant: Int64) -> String {
            if instant >= day.dayEnd { return "24:00" }
            let local = instant + Int64(zone.secondsFromGMT(for: Date(milliseconds: instant))) * 1000
            let minutes = ((local / 60_000) % 1440 + 1440) % 1440
            return String(format: "%02d:%02d", minutes / 60, minutes % 60)
        }
        let height = top + rowHeight * Double(day.slots.count) + 12
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(format(width))" height="\(format(height))" \
            viewBox="0 0 \(format(width)) \(format(height))" font-family="sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="#ffffff"/>
            <text x="8" y="18" font-size="14" font-weight="bold">\(escape(day.date)) (\(escape(day.timezone)))</text>

            """
        var hour = day.dayStart
        while hour < day.dayEnd {
            let position = format(x(hour))
            svg += "<line x1=\"\(position)\" y1=\"\(format(top - 10))\" x2=\"\(position)\" y2=\"\(format(height - 8))\" stroke=\"#eeeeee\"/>\n"
            let label = clock(hour)
            if label.hasSuffix(":00"), Int(label.prefix(2))! % 3 == 0 {
                svg += "<text x=\"\(position)\" y=\"\(format(top - 14))\" text-anchor=\"middle\" fill=\"#666666\">\(label.prefix(2))</text>\n"
            }
            hour += 3_600_000
        }
        for (row, slot) in day.slots.enumerated() {
            let y = top + rowHeight * Double(row)
            let category = slot.category.rawValue + (slot.edited ? " ✎" : "")
            let barWidth = max(x(slot.end) - x(slot.start), 1)
            svg += """
                <g><title>\(escape(slot.category.rawValue)) \(Int((slot.confidence * 100).rounded()))% · \(slot.activity.rawValue)</title>\
                <text x="8" y="\(format(y + (labelsAbove ? 12 : rowHeight * 0.7)))">\(clock(slot.start))–\(clock(slot.end)) \(escape(category))</text>\
                <rect x="\(format(x(slot.start)))" y="\(format(y + labelLine + 3))" width="\(format(barWidth))" height="\(format(self.rowHeight - 6))" \
                rx="3" fill="\(Self.colors[slot.category]!)"/></g>

                """
        }
        return svg + "</svg>\n"
    }

    private func format(_ value: Double) -> String {
        String(format: "%.1f", value)
    }

    private func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
