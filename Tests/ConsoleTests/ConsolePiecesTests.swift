import Foundation
@testable import GuardianConsole
import GuardianShared
import Testing

@Suite("console pieces: forms, escaping, tokens, what a parent sees")
struct ConsolePiecesTests {
    @Test("a form is read strictly: escapes, UTF-8, repeated names, field count")
    func formReading() throws {
        let form = try FormData(Array("text=Block+all+games%21&child=tablet-sam&text=second&empty=".utf8))
        #expect(form["text"] == "Block all games!")
        #expect(form.optional("child") == "tablet-sam")
        #expect(form.optional("empty") == nil)
        for garbage in ["a=%ZZ", "a=%4", "a=%", "a=%C3%28", "x=\u{7}"] {
            if garbage.hasPrefix("x=") {
                let form = try FormData(Array(garbage.utf8))
                #expect(throws: ConsoleError.self) { try form.required("x", label: "x") }
            } else {
                #expect(throws: ConsoleError.self) { try FormData(Array(garbage.utf8)) }
            }
        }
        let many = (0...FormData.maxFields).map { "f\($0)=1" }.joined(separator: "&")
        #expect(throws: ConsoleError.badForm("more than \(FormData.maxFields) fields")) { try FormData(Array(many.utf8)) }
        let long = try FormData(Array("text=\(String(repeating: "a", count: 300))".utf8))
        #expect(throws: ConsoleError.self) { try long.required("text", label: "text") }
        #expect(throws: ConsoleError.badForm("what is missing")) { try FormData([]).required("what", label: "what") }
    }

    @Test("values are escaped scalar by scalar: no markup, no quote behind a combining mark, no control characters")
    func escaping() throws {
        let hostile = "<script>alert('x')</script>\"&\u{0}\"\u{301}"
        let escaped = ConsoleHTML().escapeText(hostile)
        #expect(escaped == "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&quot;&amp;\u{FFFD}&quot;\u{301}")
        #expect(!escaped.contains("<") && !escaped.contains(">") && !escaped.unicodeScalars.contains("\""))
        let templates = try ConsoleTemplates()
        #expect(templates.render("problem", ["problem": hostile]).contains(escaped))
        let signIn = templates.page("signin", ["token": hostile, "problem": hostile, "notice": hostile], title: hostile, session: nil)
        #expect(signIn.components(separatedBy: escaped).count == 5, "the title, the token, the problem and the notice")
    }

    @Test("every template parses and renders; one that does not parse stops the console at start")
    func templates() throws {
        let templates = try ConsoleTemplates()
        for name in ConsoleTemplates.sources.keys {
            #expect(!templates.render(name, [String: String]()).contains("{{"), "\(name)")
        }
        #expect(throws: ConsoleTemplates.Unparsable.self) { try ConsoleTemplates(sources: ["broken": Array("{{#open}}".utf8)]) }
    }

    @Test("session tokens are 256 random bits, well formed, compared exactly")
    func tokens() {
        let tokens = (0..<200).map { _ in SessionToken.make() }
        #expect(Set(tokens).count == tokens.count)
        #expect(tokens.allSatisfy { $0.utf8.count == 43 && SessionToken.isWellFormed($0) })
        #expect(SessionToken.matches(tokens[0], tokens[0]))
        #expect(!SessionToken.matches(tokens[0], tokens[1]))
        #expect(!SessionToken.matches("", ""))
        #expect(!SessionToken.isWellFormed("../../etc/passwd") && !SessionToken.isWellFormed(tokens[0] + "x"))
    }

    @Test("sign-ins are throttled per id after five refusals, until the oldest ages out; a success clears them")
    func throttle() {
        let throttle = SignInThrottle(limit: 5, window: .seconds(600))
        let start = ContinuousClock.now
        for i in 0..<4 { throttle.refused("parent-alex", now: start + .seconds(i)) }
        #expect(throttle.wait(for: "parent-alex", now: start + .seconds(5)) == nil)
        throttle.refused("parent-alex", now: start + .seconds(5))
        #expect(throttle.wait(for: "parent-alex", now: start + .seconds(6)) == .seconds(594))
        #expect(throttle.wait(for: "parent-bo", now: start + .seconds(6)) == nil)
        #expect(throttle.wait(for: "parent-alex", now: start + .seconds(601)) == nil)
        throttle.refused("parent-bo", now: start)
        throttle.accepted("parent-bo")
        #expect(throttle.wait(for: "parent-bo", now: start) == nil)
    }

    @Test("online means an event within the window and no offline event after it")
    func online() {
        let now = Timestamp(rfc3339: "2026-11-22T12:00:00Z")!
        var child = ChildView()
        #expect(!child.isOnline(now: now, window: .seconds(600)))
        child.lastSeen = now.adding(seconds: -300)
        #expect(child.isOnline(now: now, window: .seconds(600)))
        #expect(!child.isOnline(now: now, window: .seconds(60)))
        child.wentOffline = now.adding(seconds: -10)
        #expect(!child.isOnline(now: now, window: .seconds(600)))
    }

    @Test("hostile names in families, zones, notifications and replies come out escaped on every section")
    func hostileStringsEscaped() throws {
        let templates = try ConsoleTemplates()
        let evil = "<img src=x onerror=alert(1)>"
        var view = FamilyView()
        view.families["f"] = Family(parents: ["parent-alex"], children: [Family.Child(deviceId: "tablet-sam", name: evil)])
        view.zones["z"] = DangerZone(name: evil, lat: 48.85, lon: 2.35, radius: 200)
        view.devices["tablet-sam"] = ChildView(
            lastSeen: .now(), batteryLevel: 0.5, batteryState: evil, location: .init(lat: 48.851, lon: 2.351, ts: .now()),
            status: ChildStatus(ts: .now(), message: evil))
        view.add(UserNotification(id: "n1", ts: .now(), kind: .status, title: evil, body: evil, priority: .high, data: [:]))
        view.add(SentCommand(id: "c1", text: evil, child: nil, sentAt: .now(), reply: CommandReply(commandId: "c1", status: .clarify, command: nil, summary: evil)))
        let page = FamilyPage(view: view, parent: "parent-alex", csrf: "t", now: .now(), onlineWindow: .seconds(600))
        for section in [LiveSection.children, .commands, .notifications, .map] {
            let html = templates.render(section.eventName, page)
            #expect(!html.contains("<img"), "\(section)")
            #expect(html.contains("&lt;img"), "\(section)")
        }
    }

    @Test("the map draws children and zones without any outside host and says who is inside a zone")
    func map() throws {
        var view = FamilyView()
        view.families["f"] = Family(parents: ["p"], children: [Family.Child(deviceId: "d", name: "Sam")])
        view.zones["z"] = DangerZone(name: "Arcade", lat: 48.8566, lon: 2.3522, radius: 200)
        view.devices["d"] = ChildView(location: .init(lat: 48.8567, lon: 2.3523, ts: .now()))
        let html = try ConsoleTemplates().render("map", FamilyMap(view: view, children: view.children(of: "p")))
        #expect(html.contains("<svg") && html.contains("Arcade") && html.contains("inside danger zone Arcade"))
        #expect(!html.contains("http://") || html.components(separatedBy: "http://").dropFirst().allSatisfy { $0.hasPrefix("www.w3.org/2000/svg") })
        #expect(!html.contains("https://"))
    }

    @Test("with a tile server configured, the map lays its tiles under the drawing and the page may load images from it, and only from it")
    func mapTiles() throws {
        var view = FamilyView()
        view.families["f"] = Family(parents: ["p"], children: [Family.Child(deviceId: "d", name: "Sam")])
        view.zones["z"] = DangerZone(name: "Arcade", lat: 48.8566, lon: 2.3522, radius: 200)
        view.devices["d"] = ChildView(location: .init(lat: 48.8600, lon: 2.3600, ts: .now()))
        let tiles = try #require(MapTiles(template: "https://tiles.example.org:8443/{z}/{x}/{y}.png"))
        #expect(tiles.origin == "https://tiles.example.org:8443")
        let templates = try ConsoleTemplates()
        let html = templates.render("map", FamilyMap(view: view, children: view.children(of: "p"), tiles: tiles))
        let hrefs = html.components(separatedBy: "<image class=\"tile\" href=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        #expect(!hrefs.isEmpty && hrefs.count <= 64)
        // Paris at a town's zoom: the tiles are those of zoom z covering 48.85-48.86 N, 2.35-2.36 E.
        for href in hrefs {
            let parts = href.dropFirst("https://tiles.example.org:8443/".count).dropLast(".png".count).split(separator: "/").compactMap { Int($0) }
            try #require(parts.count == 3, "\(href)")
            let n = Double(1 << parts[0])
            let west = Double(parts[1]) / n * 360 - 180, east = Double(parts[1] + 1) / n * 360 - 180
            #expect(parts[0] >= 12 && parts[0] <= 19, "zoom \(parts[0])")
            #expect(west < 2.40 && east > 2.30, "tile \(href) spans \(west)...\(east)")
        }
        #expect(!templates.render("map", FamilyMap(view: view, children: view.children(of: "p"))).contains("<image"))
        #expect(SecurityHeaders(tiles: tiles).contentSecurityPolicy.contains("img-src 'self' data: https://tiles.example.org:8443;"))
        #expect(SecurityHeaders().contentSecurityPolicy.contains("img-src 'self' data:;"))
        for bad in ["https://tiles.example.org/{x}/{y}.png", "javascript:{z}{x}{y}", "https://t.example/{z}/{x}/{y}.png\"onload=x"] {
            #expect(MapTiles(template: bad) == nil, "\(bad)")
        }
        #expect(throws: ConfigurationError.self) { try ConsoleSettings(environment: ["GUARDIAN_CONSOLE_TILE_URL": "ftp://t/{z}/{x}/{y}"]) }
        #expect(try ConsoleSettings(environment: ["GUARDIAN_CONSOLE_TILE_URL": "https://t.example/{z}/{x}/{y}.png"]).tiles?.origin == "https://t.example")
    }

    @Test("settings are read once from the environment, with clear errors")
    func settings() throws {
        let settings = try ConsoleSettings(environment: ["GUARDIAN_CONSOLE_PORT": "0", "GUARDIAN_CONSOLE_IDLE_MINUTES": "5", "GUARDIAN_CONSOLE_PUBLIC_URL": "https://guardian.home:8443"])
        #expect(settings.host == "127.0.0.1" && settings.port == 0 && settings.idleExpiry == .seconds(300) && settings.servedOverTLS)
        #expect(throws: ConfigurationError.self) { try ConsoleSettings(environment: ["GUARDIAN_CONSOLE_PORT": "http"]) }
        #expect(throws: ConfigurationError.self) { try ConsoleSettings(environment: ["GUARDIAN_CONSOLE_PUBLIC_URL": "javascript:alert(1)"]) }
        #expect(throws: ConfigurationError.self) { try ConsoleSettings(environment: ["GUARDIAN_MQTT_URL": "ftp://x"]) }
    }

    @Test("a server-sent event carries every line of the HTML as data")
    func sseFormat() {
        #expect(Console.event("children", "<p>a</p>\n<p>b</p>") == "event: children\ndata: <p>a</p>\ndata: <p>b</p>\n\n")
    }
}
