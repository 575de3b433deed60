import Foundation
import GuardianShared
import HTTPTypes
import Hummingbird
import NIOCore

/// `GET /events?sections=…`: the server-sent event stream of a page. Each change the parent's
/// connection delivers becomes one event named after the section, carrying the section's new
/// HTML, so the page updates without a reload.
extension Console {
    func liveStream(_ request: Request) -> Response {
        guard let session = session(of: request) else { return Self.text("Please sign in.", status: .unauthorized) }
        guard session.listenerCount < Self.maxStreamsPerSession else {
            return Self.text("Too many open console pages: close some and reload.", status: .tooManyRequests)
        }
        let wanted = Set((request.uri.queryParameters["sections"] ?? "").split(separator: ",").map(String.init).prefix(8))
        let (_, changes) = session.changes()
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream; charset=utf-8"
        headers[.cacheControl] = "no-store"
        headers[.xAccelBuffering] = "no"
        let (onlineWindow, tiles, templates) = (settings.onlineWindow, settings.tiles, templates)
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody { writer in
                try await writer.write(ByteBuffer(string: "retry: 2000\n: live\n\n"))
                for await section in changes where wanted.contains(section.eventName) {
                    let html = Self.render(section, session: session, onlineWindow: onlineWindow, tiles: tiles, templates: templates)
                    try await writer.write(ByteBuffer(string: Self.event(section.eventName, html)))
                }
                try await writer.finish(nil)
            })
    }

    /// Open pages (streams) one session may have at once.
    static let maxStreamsPerSession = 16

    /// A section's new HTML: its template is named as its event (`day-section` for a day).
    static func render(_ section: LiveSection, session: ParentSession, onlineWindow: Duration, tiles: MapTiles?, templates: ConsoleTemplates) -> String {
        let view = session.view.withLock { $0 }
        switch section {
        case .day(let child, let date):
            return templates.render("day-section", DayPage(view: view, parent: session.parent, csrf: session.csrfToken, child: view.child(child, of: session.parent), date: date))
        default:
            return templates.render(section.eventName, FamilyPage(view: view, parent: session.parent, csrf: session.csrfToken, now: .now(), onlineWindow: onlineWindow, tiles: tiles))
        }
    }

    /// One event in the stream's format: each line of `data` on its own `data:` line.
    static func event(_ name: String, _ data: String) -> String {
        var text = "event: \(name)\n"
        for line in data.split(separator: "\n", omittingEmptySubsequences: false) {
            text += "data: \(line.replacingOccurrences(of: "\r", with: ""))\n"
        }
        return text + "\n"
    }
}

extension HTTPField.Name {
    static let xAccelBuffering = Self("X-Accel-Buffering")!
}
