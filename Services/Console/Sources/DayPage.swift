import Foundation
import GuardianShared
import GuardianTimeline

/// A child's day (`day` template; `day-section` for the live stream): the timeline service's
/// retained day drawn as the CLI draws it (`TimelineSVG`, on a phone with the labels above the bars
/// so that the whole day fits), and each slot listed with a form to correct its category (published as feedback).
struct DayPage {
    let csrf: String
    let child: Family.Child?
    let date: String
    let choices: [Choice]
    let recent: [Choice]
    let eventName: String
    let drawn: Drawn?

    /// The published day: its charts (HTML that `TimelineSVG` made) and its slots.
    struct Drawn { let timezone: String, wideChart: String, narrowChart: String, slots: [Slot] }
    struct Slot {
        let index: Int, from: String, to: String, start: String
        let category: String, edited: Bool, sure: Int, activity: String, unlabelled: Bool, choices: [Choice]
    }

    init(view: FamilyView, parent: String, csrf: String, child: Family.Child?, date: String) {
        self.csrf = csrf
        self.child = child
        self.date = date
        let shown = child?.deviceId ?? ""
        choices = view.children(of: parent).map { Choice(value: $0.deviceId, label: $0.name, selected: $0.deviceId == shown) }
        recent = (view.days[shown]?.keys.sorted(by: >) ?? []).prefix(14).map { Choice(value: $0, label: $0, selected: $0 == date) }
        eventName = LiveSection.day(child: shown, date: date).eventName
        drawn = view.days[shown]?[date].flatMap { published in
            published.dayTimeline.map { day in
                let zone = TimeZone(identifier: day.timezone) ?? .gmt
                let slots = published.slots.enumerated().map { index, slot in
                    Slot(
                        index: index, from: Self.clock(slot.start, zone), to: Self.clock(slot.end, zone), start: slot.start.rfc3339,
                        category: slot.category.rawValue, edited: slot.edited, sure: Int((slot.confidence * 100).rounded()), activity: slot.activity.rawValue,
                        unlabelled: !TimelineCategory.learnable.contains(slot.category),
                        choices: TimelineCategory.learnable.map { Choice(value: $0.rawValue, label: $0.rawValue, selected: $0 == slot.category) })
                }
                return Drawn(timezone: day.timezone, wideChart: TimelineSVG().render(day), narrowChart: TimelineSVG.narrow.render(day), slots: slots)
            }
        }
    }

    static func isDate(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        return text.utf8.count == 10 && parts.count == 3 && parts.map(\.count) == [4, 2, 2] && parts.allSatisfy { $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
    }

    /// The newest day the timeline published for `child`, or today (UTC).
    static func defaultDate(for child: String, in view: FamilyView) -> String {
        view.days[child]?.keys.max() ?? String(Timestamp.now().rfc3339.prefix(10))
    }

    private static func clock(_ ts: Timestamp, _ zone: TimeZone) -> String {
        let local = ts.milliseconds / 1000 + Int64(zone.secondsFromGMT(for: ts.date))
        let minutes = ((local / 60) % 1440 + 1440) % 1440
        return String(format: "%02d:%02d", minutes / 60, minutes % 60)
    }
}
