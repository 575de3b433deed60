import Foundation
import GuardianShared
import GuardianTimeline
import HTTPTypes
import Hummingbird
import NIOCore

/// The console's routes and its pages (GET); the forms are in `Console+Forms`.
extension Console {
    static let sessionCookie = "guardian_session"
    static let signInCookie = "guardian_signin"
    static let maxFormBytes = 16 * 1024

    func makeRouter() -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: SecurityHeaders(tiles: settings.tiles))
        router.get("/static/console.css") { _, _ in Self.asset(ConsoleAssets.css, type: "text/css; charset=utf-8") }
        router.get("/static/console.js") { _, _ in Self.asset(ConsoleAssets.javascript, type: "text/javascript; charset=utf-8") }
        router.get("/signin") { request, _ in self.signInPage(request) }
        router.post("/signin") { request, _ in await self.respond(request, signedIn: false) { form, _ in try await self.signIn(request, form) } }
        router.post("/signout") { request, _ in
            await self.respond(request) { _, session in
                await self.sessions.signOut(session!)
                var response = Self.redirect("/signin?signedout=1")
                response.setCookie(self.cookie(Self.sessionCookie, "", request: request, maxAge: 0))
                return response
            }
        }
        router.get("/") { request, _ in self.page(request) { session, view in self.familyPage(session, view) } }
        router.get("/day") { request, _ in self.page(request) { session, view in try self.dayPage(request, session, view) } }
        router.get("/privacy") { request, _ in
            self.page(request) { session, view in
                self.templates.page("privacy", ["children": view.children(of: session.parent), "csrf": session.csrfToken], title: "Privacy", session: session, place: .privacy)
            }
        }
        router.get("/privacy/erase") { request, _ in
            self.page(request) { session, view in
                let child = try self.child(request.uri.queryParameters["child"].map(String.init), of: session, in: view)
                return self.templates.page("erase", ["child": child, "csrf": session.csrfToken], title: "Erase", session: session, place: .privacy)
            }
        }
        router.post("/command") { request, _ in await self.respond(request) { form, session in try await self.command(request, form, session!) } }
        router.post("/day/correct") { request, _ in await self.respond(request) { form, session in try await self.correct(request, form, session!) } }
        router.post("/privacy/export") { request, _ in await self.respond(request) { form, session in try await self.export(form, session!) } }
        router.post("/privacy/erase") { request, _ in await self.respond(request) { form, session in try await self.erase(form, session!) } }
        router.get("/events") { request, _ in self.liveStream(request) }
        return router
    }

    // MARK: Pages

    func signInPage(_ request: Request) -> Response {
        if session(of: request) != nil { return Self.redirect("/") }
        let query = request.uri.queryParameters
        let notice = query["expired"] != nil ? "Your session ended. Please sign in again." : query["signedout"] != nil ? "You are signed out." : nil
        return signInForm(request, problem: nil, notice: notice, status: .ok)
    }

    /// The sign-in form: a parent's own Guardian id and password, which the console passes to the
    /// broker and keeps only inside the session's connection.
    func signInForm(_ request: Request, problem: String?, notice: String?, status: HTTPResponse.Status) -> Response {
        let token = SessionToken.make()
        let form = ["token": token, "problem": problem, "notice": notice].compactMapValues { $0 }
        var response = Self.html(templates.page("signin", form, title: "Sign in", session: nil), status: status)
        response.setCookie(cookie(Self.signInCookie, token, request: request, maxAge: 3600, path: "/signin"))
        return response
    }

    func familyPage(_ session: ParentSession, _ view: FamilyView) -> String {
        let page = FamilyPage(view: view, parent: session.parent, csrf: session.csrfToken, now: .now(), onlineWindow: settings.onlineWindow, tiles: settings.tiles)
        return templates.page("family", page, title: "Family", session: session, place: .family, live: "/events?sections=children,commands,notifications,map")
    }

    func dayPage(_ request: Request, _ session: ParentSession, _ view: FamilyView) throws(ConsoleError) -> String {
        let query = request.uri.queryParameters
        let children = view.children(of: session.parent)
        var child = children.first
        if let asked = query["child"] { child = try self.child(String(asked), of: session, in: view) }
        var date = child.map { DayPage.defaultDate(for: $0.deviceId, in: view) } ?? ""
        if let asked = query["date"].map(String.init), !asked.isEmpty {
            guard DayPage.isDate(asked) else { throw .badForm("the date must be YYYY-MM-DD") }
            date = asked
        }
        let page = DayPage(view: view, parent: session.parent, csrf: session.csrfToken, child: child, date: date)
        let live = child.map { "/events?sections=" + LiveSection.day(child: $0.deviceId, date: date).eventName }
        return templates.page("day", page, title: "\(child?.name ?? "A") day", session: session, place: .day, live: live)
    }
}
