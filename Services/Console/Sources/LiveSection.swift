/// A part of a page that changes while the parent looks at it, pushed to the browser as one
/// server-sent event carrying the part's new HTML.
enum LiveSection: Sendable, Hashable {
    case children
    case map
    case notifications
    case commands
    case day(child: String, date: String)

    /// The event's name, which the page's script listens for (`day:{child}:{date}` for a day).
    var eventName: String {
        switch self {
        case .children: "children"
        case .map: "map"
        case .notifications: "notifications"
        case .commands: "commands"
        case .day(let child, let date): "day:\(child):\(date)"
        }
    }
}
