import GuardianShared

/// The family page: each child's device and policy, the command box and its replies, the
/// notifications, the map. Each section is also rendered alone for the live stream.
struct FamilyPage {
    let view: FamilyView
    let parent: String
    let csrf: String
    let now: Timestamp
    let onlineWindow: Duration
    var tiles: MapTiles? = nil

    var children: [Family.Child] { view.children(of: parent) }

    func body(session: ParentSession) -> String {
        let childOptions = children.map { "<option value=\"\(HTML.escape($0.deviceId))\">\(HTML.escape($0.name))</option>" }.joined()
        let childPicker = children.count > 1
            ? "<label for=\"command-child\">Child</label><select id=\"command-child\" name=\"child\"><option value=\"\">(say it in the text)</option>\(childOptions)</select>"
            : ""
        return """
            <h1>Your family</h1>
            <section aria-labelledby="children-title"><h2 id="children-title">Children</h2>
            <div id="children" data-live-section="children">\(section(.children))</div></section>
            <section aria-labelledby="command-title"><h2 id="command-title">Tell Guardian</h2>
            <form method="post" action="/command" class="command" data-enhance>\(HTML.csrfField(session))
            <label for="command-text">What should happen? Say it as you would to a person.</label>
            <input id="command-text" name="text" type="text" maxlength="256" required autocomplete="off" placeholder="Block all games for 2 hours">
            \(childPicker)<button type="submit">Send</button></form>
            <p class="form-status" role="status" aria-live="polite"></p>
            <div id="commands" data-live-section="commands">\(section(.commands))</div></section>
            <section aria-labelledby="notifications-title"><h2 id="notifications-title">Notifications</h2>
            <div id="notifications" data-live-section="notifications" aria-live="polite">\(section(.notifications))</div></section>
            <section aria-labelledby="map-title"><h2 id="map-title">Where they are</h2>
            <div id="map" data-live-section="map">\(section(.map))</div></section>
            """
    }

    func section(_ section: LiveSection) -> String {
        switch section {
        case .children: childrenSection()
        case .commands: commandsSection()
        case .notifications: notificationsSection()
        case .map: FamilyMap(view: view, children: children, tiles: tiles).render()
        case .day: ""
        }
    }

    private func childrenSection() -> String {
        guard !children.isEmpty else {
            return "<p>No family lists you as a parent yet. An administrator adds you with <code>guardian family set</code>.</p>"
        }
        return "<ul class=\"cards\">" + children.map { child in card(child, view.devices[child.deviceId] ?? ChildView()) }.joined() + "</ul>"
    }

    private func card(_ child: Family.Child, _ device: ChildView) -> String {
        let id = HTML.escape(child.deviceId)
        var html = "<li class=\"card\" data-child=\"\(id)\"><h3>\(HTML.escape(child.name)) <span class=\"device\">(\(id))</span></h3><dl>"
        let online = device.isOnline(now: now, window: onlineWindow)
        let seen = device.lastSeen.map { "last event \(HTML.span(seconds: (now.milliseconds - $0.milliseconds) / 1000)) ago" } ?? "no event since you signed in"
        html += "<dt>Device</dt><dd class=\"\(online ? "online" : "offline")\" data-field=\"online\"><span aria-hidden=\"true\">\(online ? "●" : "○")</span> \(online ? "Online" : "Offline"), \(seen)</dd>"
        let battery = device.batteryLevel.map { "\(Int(($0 * 100).rounded()))%" + (device.batteryState.map { " (\(HTML.escape($0)))" } ?? "") } ?? "unknown"
        html += "<dt>Battery</dt><dd data-field=\"battery\">\(battery)</dd>"
        html += "<dt>In force now</dt><dd data-field=\"policy\">\(policy(device.policy))</dd>"
        if let command = device.command {
            html += "<dt>Last command</dt><dd data-field=\"command\">\(HTML.escape(CommandWording.describe(command.command)))"
            if let issued = command.issuedAt { html += ", sent \(HTML.time(issued))" }
            html += "<br>" + acknowledgement(device.ack, for: command.id) + "</dd>"
        }
        if let status = device.status {
            html += "<dt>Device says</dt><dd data-field=\"status\">\(HTML.escape(status.message)) (\(HTML.time(status.ts)))</dd>"
        }
        html += "</dl><p><a href=\"/day?child=\(id)\">\(HTML.escape(child.name))’s day</a></p></li>"
        return html
    }

    private func policy(_ policy: PolicyInForce?) -> String {
        guard let policy, !policy.restrictions.isEmpty else { return "No restrictions" }
        let items = policy.restrictions.map { restriction -> String in
            var text = HTML.escape(CommandWording.describe(restriction))
            if let until = restriction.until {
                text += " until \(HTML.time(until)) (ends in \(HTML.span(seconds: (until.milliseconds - now.milliseconds) / 1000)))"
            } else if let message = restriction.message {
                text += ": \(HTML.escape(message))"
            }
            return "<li>\(text)</li>"
        }
        return "<ul class=\"policy\">\(items.joined())</ul>"
    }

    private func acknowledgement(_ ack: CommandAck?, for commandId: String) -> String {
        guard let ack, ack.commandId == commandId else { return "<span class=\"pending\">Not acknowledged yet</span>" }
        if ack.ok { return "<span class=\"ok\">Acknowledged by the device ✓</span>" }
        return "<span class=\"failed\">The device could not apply it: \(HTML.escape(ack.error ?? "no reason given"))</span>"
    }

    private func commandsSection() -> String {
        guard !view.commands.isEmpty else { return "" }
        let items = view.commands.map { command -> String in
            var html = "<li data-command=\"\(HTML.escape(command.id))\">"
            if !command.text.isEmpty { html += "<q>\(HTML.escape(command.text))</q> " }
            guard let reply = command.reply else { return html + "<span class=\"pending\">waiting for Guardian…</span></li>" }
            html += "<span class=\"reply \(reply.status.rawValue)\" data-status=\"\(reply.status.rawValue)\"><strong>\(label(reply.status)):</strong> \(HTML.escape(reply.summary))"
            if let reason = reply.reason { html += " (\(HTML.escape(reason)))" }
            html += "</span>"
            if reply.status == .clarify { html += clarifyForm(command) }
            return html + "</li>"
        }
        return "<ul class=\"replies\">\(items.joined())</ul>"
    }

    private func label(_ status: CommandReply.Status) -> String {
        switch status {
        case .accepted: "Done"
        case .rejected: "Not done"
        case .clarify: "Question"
        }
    }

    /// Answering the router's question in place: the same command again, said another way or for a child.
    private func clarifyForm(_ command: SentCommand) -> String {
        let fieldId = "answer-\(HTML.escape(command.id))"
        var html = "<form method=\"post\" action=\"/command\" class=\"answer\" data-enhance><input type=\"hidden\" name=\"csrf\" value=\"\(HTML.escape(csrf))\">"
        html += "<label for=\"\(fieldId)\">Your answer</label><input id=\"\(fieldId)\" name=\"text\" type=\"text\" maxlength=\"256\" required value=\"\(HTML.escape(command.text))\">"
        if children.count > 1 {
            html += "<label for=\"\(fieldId)-child\">Child</label><select id=\"\(fieldId)-child\" name=\"child\"><option value=\"\">(in the text)</option>"
            html += children.map { "<option value=\"\(HTML.escape($0.deviceId))\"\($0.deviceId == command.child ? " selected" : "")>\(HTML.escape($0.name))</option>" }.joined()
            html += "</select>"
        }
        return html + "<button type=\"submit\">Answer</button></form>"
    }

    private func notificationsSection() -> String {
        guard !view.notifications.isEmpty else { return "<p class=\"empty\">No notifications since you signed in.</p>" }
        let items = view.notifications.map { note in
            """
            <li class="note \(note.priority.rawValue)" data-note="\(HTML.escape(note.id))"><p class="note-head">\(HTML.time(note.ts)) · \
            <span class="kind">\(HTML.escape(note.kind.rawValue.replacingOccurrences(of: "_", with: " ")))</span>\
            \(note.priority == .high ? " · <strong>important</strong>" : "")</p>\
            <p><strong>\(HTML.escape(note.title))</strong></p><p>\(HTML.escape(note.body))</p></li>
            """
        }
        return "<ol class=\"notes\" reversed>\(items.joined())</ol>"
    }
}
