import GuardianShared
import Mustache

/// An instant as the `time` template shows it (UTC; the page's script shows the browser's time zone).
extension Timestamp: MustacheParent {
    public func child(named name: String) -> Any? {
        switch name {
        case "rfc3339": rfc3339
        case "date": String(rfc3339.prefix(10))
        case "clock": String(rfc3339.dropFirst(11).prefix(5))
        default: nil
        }
    }
}
