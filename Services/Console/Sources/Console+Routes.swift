import Foundation
import GuardianShared
import GuardianTimeline
import HTTPTypes
import Hummingbird
import NIOCore

/// The console's pages and forms. Every POST passes `checkForm`: the same origin and the session's
/// CSRF token (sign-in: the sign-in cookie's token).
extension Console {
    static let sessionCookie = "guardian_session"
    static let signInCookie = "guardian_signin"
    static let maxFormBytes = 16 * 1024

    func makeRouter() -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: SecurityHeaders())
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
                HTML.page(title: "Privacy", session: session, place: .privacy, body: PrivacyPage.body(children: view.children(of: session.parent), csrf: session.csrfToken))
            }
        }
        router.get("/privacy/erase") { request, _ in
            self.page(request) { session, view in
                let child = try self.child(request.uri.queryParameters["child"].map(String.init), of: session, in: view)
                return HTML.page(title: "Erase", session: session, place: .privacy, body: PrivacyPage.confirmErase(child: child, csrf: session.csrfToken))
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

    private func signInPage(_ request: Request) -> Response {
        if session(of: request) != nil { return Self.redirect("/") }
        let query = request.uri.queryParameters
        let notice = query["expired"] != nil ? "Your session ended. Please sign in again." : query["signedout"] != nil ? "You are signed out." : nil
        return signInForm(request, problem: nil, notice: notice, status: .ok)
    }

    private func signInForm(_ request: Request, problem: String?, notice: String?, status: HTTPResponse.Status) -> Response {
        let token = SessionToken.make()
        var response = Self.html(HTML.page(title: "Sign in", session: nil, body: SignInPage.body(token: token, problem: problem, notice: notice)), status: status)
        response.setCookie(cookie(Self.signInCookie, token, request: request, maxAge: 3600, path: "/signin"))
        return response
    }

    private func familyPage(_ session: ParentSession, _ view: FamilyView) -> String {
        let page = FamilyPage(view: view, parent: session.parent, csrf: session.csrfToken, now: .now(), onlineWindow: settings.onlineWindow)
        return HTML.page(
            title: "Family", session: session, place: .family, live: "/events?sections=children,commands,notifications,map", body: page.body(session: session))
    }

    private func dayPage(_ request: Request, _ session: ParentSession, _ view: FamilyView) throws(ConsoleError) -> String {
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
        return HTML.page(title: "\(child?.name ?? "A") day", session: session, place: .day, live: live, body: page.body())
    }

    // MARK: Forms

    private func signIn(_ request: Request, _ form: FormData) async throws(ConsoleError) -> Response {
        guard let expected = request.cookies[Self.signInCookie]?.value, let token = form["token"], SessionToken.matches(expected, token) else {
            throw .forgedRequest("the sign-in form expired")
        }
        let user = try form.required("user", label: "Guardian id", maxLength: 64)
        let password = try form.required("password", label: "password", maxLength: 256)
        guard Identifier.isValid(user) else {
            return signInForm(request, problem: "A Guardian id has only letters, digits, - and _.", notice: nil, status: .badRequest)
        }
        let session: ParentSession
        do {
            session = try await ParentSession.open(parent: user, password: password, settings: settings, logger: logger)
        } catch {
            logger.notice("sign-in refused", metadata: ["console.user": "\(user)", "console.reason": "\(error)"])
            return signInForm(request, problem: error.description, notice: nil, status: HTTPResponse.Status(code: error.status))
        }
        sessions.insert(session)
        var response = Self.redirect("/")
        response.setCookie(cookie(Self.sessionCookie, session.id, request: request, maxAge: nil))
        response.setCookie(cookie(Self.signInCookie, "", request: request, maxAge: 0, path: "/signin"))
        return response
    }

    private func command(_ request: Request, _ form: FormData, _ session: ParentSession) async throws(ConsoleError) -> Response {
        let text = try form.required("text", label: "what should happen", maxLength: 256)
        let view = session.view.withLock { $0 }
        var child: String?
        if let asked = form.optional("child") { child = try self.child(asked, of: session, in: view).deviceId }
        _ = try await session.send(command: text, child: child)
        return Self.done(request, redirect: "/")
    }

    private func correct(_ request: Request, _ form: FormData, _ session: ParentSession) async throws(ConsoleError) -> Response {
        let view = session.view.withLock { $0 }
        let child = try self.child(try form.required("child", label: "child", maxLength: 64), of: session, in: view)
        let date = try form.required("date", label: "date", maxLength: 10)
        guard DayPage.isDate(date) else { throw .badForm("the date must be YYYY-MM-DD") }
        guard let start = Timestamp(rfc3339: try form.required("start", label: "slot", maxLength: 40)) else { throw .badForm("the slot's start is not a time") }
        guard let category = TimelineCategory(rawValue: try form.required("category", label: "category", maxLength: 32)),
            TimelineCategory.learnable.contains(category)
        else { throw .badForm("the category must be one of \(TimelineCategory.learnable.map(\.rawValue).joined(separator: ", "))") }
        try await session.correct(child: child.deviceId, start: start, category: category)
        return Self.done(request, redirect: "/day?child=\(child.deviceId)&date=\(date)")
    }

    private func export(_ form: FormData, _ session: ParentSession) async throws(ConsoleError) -> Response {
        let view = session.view.withLock { $0 }
        let child = try self.child(try form.required("child", label: "child", maxLength: 64), of: session, in: view)
        let outcome = try await session.privacy(.export, child: child.deviceId)
        let file = PrivacyExportFile(outcome)
        guard !file.answers.isEmpty else { throw .busFailure("no service answered the export in time") }
        let data: Data
        do { data = try file.encoded() } catch { throw .busFailure("the export could not be written: \(error)") }
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[.contentDisposition] = "attachment; filename=\"guardian-\(child.deviceId)-\(file.exportedAt.rfc3339.prefix(10)).json\""
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    private func erase(_ form: FormData, _ session: ParentSession) async throws(ConsoleError) -> Response {
        let view = session.view.withLock { $0 }
        let child = try self.child(try form.required("child", label: "child", maxLength: 64), of: session, in: view)
        guard form["confirm"] == child.deviceId else { throw .badForm("tick the box to confirm the erase") }
        let outcome = try await session.privacy(.forget, child: child.deviceId)
        return Self.html(HTML.page(title: "Erased", session: session, place: .privacy, body: PrivacyPage.receipts(outcome, child: child.name)))
    }

    // MARK: Plumbing

    func session(of request: Request) -> ParentSession? { sessions.session(request.cookies[Self.sessionCookie]?.value) }

    /// A child of the parent's families, by device id.
    func child(_ id: String?, of session: ParentSession, in view: FamilyView) throws(ConsoleError) -> Family.Child {
        guard let id, !id.isEmpty else { throw .badForm("no child was chosen") }
        guard let child = view.child(id, of: session.parent) else { throw .notYourChild(String(id.prefix(64))) }
        return child
    }

    /// A signed-in GET page; without a session, the sign-in page.
    private func page(_ request: Request, _ render: (ParentSession, FamilyView) throws -> String) -> Response {
        guard let session = session(of: request) else { return Self.redirect("/signin") }
        do {
            return Self.html(try render(session, session.view.withLock { $0 }))
        } catch let error as ConsoleError {
            return Self.html(HTML.errorPage(error, session: session), status: HTTPResponse.Status(code: error.status))
        } catch {
            return Self.text("unexpected error", status: .internalServerError)
        }
    }

    /// A POSTed form: size, origin and token checked before `handle` sees it; errors become a page
    /// (or, for the page's script, plain text).
    private func respond(
        _ request: Request, signedIn: Bool = true, _ handle: (FormData, ParentSession?) async throws -> Response
    ) async -> Response {
        let session = signedIn ? self.session(of: request) : nil
        do {
            if signedIn && session == nil { throw ConsoleError.notSignedIn }
            try checkOrigin(request)
            let form = try await readForm(request)
            if let session {
                guard let token = form["csrf"], SessionToken.matches(token, session.csrfToken) else { throw ConsoleError.forgedRequest("the form’s token is missing or wrong") }
            }
            return try await handle(form, session)
        } catch let error as ConsoleError {
            if request.headers[.consoleFetch] != nil { return Self.text(error.description, status: HTTPResponse.Status(code: error.status)) }
            if error == .notSignedIn { return Self.redirect("/signin?expired=1") }
            return Self.html(HTML.errorPage(error, session: session), status: HTTPResponse.Status(code: error.status))
        } catch {
            return Self.text("unexpected error", status: .internalServerError)
        }
    }

    private func readForm(_ request: Request) async throws(ConsoleError) -> FormData {
        if let type = request.headers[.contentType], !type.lowercased().hasPrefix("application/x-www-form-urlencoded") {
            throw .badForm("expected a form (application/x-www-form-urlencoded), got \(type.prefix(80))")
        }
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > Self.maxFormBytes { throw .bodyTooLarge(limit: Self.maxFormBytes) }
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: Self.maxFormBytes)
        } catch {
            throw .bodyTooLarge(limit: Self.maxFormBytes)
        }
        return try FormData(Array(buffer.readableBytesView))
    }

    /// Refuses a POST that a browser says came from another site (CSRF, with the token as the
    /// second line of defence).
    func checkOrigin(_ request: Request) throws(ConsoleError) {
        if let site = request.headers[.secFetchSite], site != "same-origin" {
            throw .forgedRequest("it came from another site (\(site.prefix(20)))")
        }
        guard let origin = request.headers[.origin] else { return }
        guard let url = URL(string: origin), let host = url.host else { throw .forgedRequest("it came from an unknown origin") }
        let authority = url.port.map { "\(host):\($0)" } ?? host
        if let publicURL = settings.publicURL {
            let expected = publicURL.port.map { "\(publicURL.host ?? ""):\($0)" } ?? (publicURL.host ?? "")
            guard url.scheme?.lowercased() == publicURL.scheme?.lowercased(), authority.lowercased() == expected.lowercased() else {
                throw .forgedRequest("it came from another origin")
            }
        } else {
            guard let hostHeader = request.head.authority, authority.lowercased() == hostHeader.lowercased() else {
                throw .forgedRequest("it came from another origin")
            }
        }
    }

    func cookie(_ name: String, _ value: String, request: Request, maxAge: Int?, path: String = "/") -> Cookie {
        let secure = settings.servedOverTLS || (settings.behindTLSProxy && request.headers[.xForwardedProto]?.lowercased() == "https")
        return Cookie(name: name, value: value, maxAge: maxAge, path: path, secure: secure, httpOnly: true, sameSite: .strict)
    }

    static func html(_ body: String, status: HTTPResponse.Status = .ok) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    static func text(_ body: String, status: HTTPResponse.Status) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    static func redirect(_ location: String) -> Response {
        var headers = HTTPFields()
        headers[.location] = location
        headers[.cacheControl] = "no-store"
        return Response(status: .seeOther, headers: headers)
    }

    /// A form's success: the page's script wants no body, a plain form goes back to its page.
    static func done(_ request: Request, redirect location: String) -> Response {
        request.headers[.consoleFetch] != nil ? Response(status: .noContent) : redirect(location)
    }

    static func asset(_ text: String, type: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.cacheControl] = "max-age=300"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}

extension HTTPField.Name {
    static let consoleFetch = Self("X-Console-Fetch")!
    static let secFetchSite = Self("Sec-Fetch-Site")!
    static let xForwardedProto = Self("X-Forwarded-Proto")!
}
