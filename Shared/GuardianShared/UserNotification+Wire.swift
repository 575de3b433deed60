import Foundation

extension UserNotification {
    /// The notification as published: the same bytes as `GuardianJSON.encode(self)`, written directly
    /// (the notifier writes one per message; `JSONEncoder` was a fifth of its work).
    public var wirePayload: Data {
        var writer = JSONWriter(capacity: 192 + title.utf8.count + body.utf8.count)
        writer.raw(#"{"body":"#)
        writer.string(body)
        writer.raw(#","data":"#)
        guard writer.object(data) else { return GuardianJSON.encode(self) }  // reports the bad number
        writer.raw(#","id":"#)
        writer.string(id)
        writer.raw(#","kind":"#)
        writer.string(kind.rawValue)
        writer.raw(#","priority":"#)
        writer.string(priority.rawValue)
        writer.raw(#","title":"#)
        writer.string(title)
        writer.raw(#","ts":"#)
        writer.string(ts.rfc3339)
        writer.raw("}")
        return Data(writer.bytes)
    }
}
