import Foundation
import GuardianShared
import GuardianTimeline

/// A child's day: the timeline service's retained day drawn as the CLI draws it (`TimelineSVG`,
/// on a phone with the labels above the bars so that the whole day fits), and each slot listed with a form to correct its category (published as feedback).
struct DayPage {
    let view: FamilyView
    let parent: String
    let csrf: String
    let child: Family.Child?
    let date: String

    static func isDate(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        return text.utf8.count == 10 && parts.count == 3 && parts.map(\.count) == [4, 2, 2] && parts.allSatisfy { $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
    }

    /// The newest day the timeline published for `child`, or today (UTC).
    static func defaultDate(for child: String, in view: FamilyView) -> String {
        view.days[child]?.keys.max() ?? String(Timestamp.now().rfc3339.prefix(10))
    }

    func body() -> String {
        let children = view.children(of: parent)
        guard let child else { return "<h1>A day</h1><p>No family lists you as a parent yet.</p>" }
        let options = children.map { "<option value=\"\(HTML.escape($0.deviceId))\"\($0.deviceId == child.deviceId ? " selected" : "")>\(HTML.escape($0.name))</option>" }.joined()
        let dates = (view.days[child.deviceId]?.keys.sorted(by: >) ?? []).prefix(14)
        let recent = dates.isEmpty ? "" : "<p>Recent days: " + dates.map { d in
            "<a href=\"/day?child=\(HTML.escape(child.deviceId))&amp;date=\(HTML.escape(d))\"\(d == date ? " aria-current=\"page\"" : "")>\(HTML.escape(d))</a>"
        }.joined(separator: " ") + "</p>"
        return """
            <h1>\(HTML.escape(child.name))’s day</h1>
            <form method="get" action="/day" class="pick-day"><label for="day-child">Child</label><select id="day-child" name="child">\(options)</select>
            <label for="day-date">Date</label><input id="day-date" name="date" type="date" value="\(HTML.escape(date))" required>
            <button type="submit">Show</button></form>
            \(recent)
            <div id="day" data-live-section="\(HTML.escape(LiveSection.day(child: child.deviceId, date: date).eventName))">\(section())</div>
            """
    }

    func section() -> String {
        guard let child else { return "" }
        guard let published = view.days[child.deviceId]?[date], let day = published.dayTimeline else {
            return "<p class=\"empty\">No timeline for \(HTML.escape(child.name)) on \(HTML.escape(date)) yet.</p>"
        }
        // The whole day fits the screen: the CLI's chart on a wide screen, labels above the bars on a phone (the CSS picks one).
        var html = "<div class=\"timeline\" role=\"img\" aria-label=\"The day drawn as a chart; the table below lists the same slots\">"
            + "<div class=\"chart-wide\">\(TimelineSVG().render(day))</div><div class=\"chart-narrow\">\(TimelineSVG.narrow.render(day))</div></div>"
        html += "<table class=\"slots\"><caption>Slots (times in \(HTML.escape(day.timezone)))</caption><thead><tr><th scope=\"col\">When</th><th scope=\"col\">What</th><th scope=\"col\">Correct it</th></tr></thead><tbody>"
        let zone = TimeZone(identifier: day.timezone) ?? .gmt
        for (index, slot) in published.slots.enumerated() {
            let fieldId = "slot-\(index)"
            let unlabelled = TimelineCategory.learnable.contains(slot.category) ? "" : "<option value=\"\" selected>choose…</option>"
            let options = unlabelled + TimelineCategory.learnable.map {
                "<option value=\"\($0.rawValue)\"\($0 == slot.category ? " selected" : "")>\($0.rawValue)</option>"
            }.joined()
            html += """
                <tr data-slot="\(index)"><td>\(clock(slot.start, zone))–\(clock(slot.end, zone))</td>\
                <td>\(slot.category.rawValue)\(slot.edited ? " (corrected)" : "") · \(Int((slot.confidence * 100).rounded()))% sure · \(slot.activity.rawValue)</td>\
                <td><form method="post" action="/day/correct" class="correct" data-enhance>\(csrfField)\
                <input type="hidden" name="child" value="\(HTML.escape(child.deviceId))"><input type="hidden" name="date" value="\(HTML.escape(date))">\
                <input type="hidden" name="start" value="\(slot.start.rfc3339)">\
                <label for="\(fieldId)" class="visually-hidden">Category from \(clock(slot.start, zone))</label>\
                <select id="\(fieldId)" name="category">\(options)</select> <button type="submit">Correct</button></form></td></tr>
                """
        }
        return html + "</tbody></table><p class=\"form-status\" role=\"status\" aria-live=\"polite\"></p>"
    }

    private var csrfField: String { "<input type=\"hidden\" name=\"csrf\" value=\"\(HTML.escape(csrf))\">" }

    private func clock(_ ts: Timestamp, _ zone: TimeZone) -> String {
        let local = ts.milliseconds / 1000 + Int64(zone.secondsFromGMT(for: ts.date))
        let minutes = ((local / 60) % 1440 + 1440) % 1440
        return String(format: "%02d:%02d", minutes / 60, minutes % 60)
    }
}
