import Foundation
import GuardianShared
import GuardianTimeline
import HTTPTypes
import Hummingbird
import NIOCore

/// The console's forms. Every POST passes `respond`: at most `maxFormBytes`, the same origin, and the
/// session's CSRF token (sign-in: the sign-in cookie's token).
extension Console {
    func signIn(_ request: Request, _ form: FormData) async throws(ConsoleError) -> Response {
        guard let expected = request.cookies[Self.signInCookie]?.value, let token = form["token"], SessionToken.matches(expected, token) else {
            throw .forgedRequest("the sign-in form expired")
        }
        let user = try form.required("user", label: "Guardian id", maxLength: 64)
        let password = try form.required("password", label: "password", maxLength: 256)
        guard Identifier.isValid(user) else {
            return signInForm(request, problem: "A Guardian id has only letters, digits, - and _.", notice: nil, status: .badRequest)
        }
        if let wait = throttle.wait(for: user) {
            let error = ConsoleError.tooManyAttempts(minutes: max(1, Int(wait.components.seconds + 59) / 60))
            return signInForm(request, problem: error.description, notice: nil, status: HTTPResponse.Status(code: error.status))
        }
        let session: ParentSession
        do {
            session = try await ParentSession.open(parent: user, password: password, settings: settings, logger: logger)
        } catch {
            if error == .signInRefused { throttle.refused(user) }
            logger.notice("sign-in refused", metadata: ["console.user": "\(user)", "console.reason": "\(error)"])
            return signInForm(request, problem: error.description, notice: nil, status: HTTPResponse.Status(code: error.status))
        }
        throttle.accepted(user)
        await sessions.insert(session)
        var response = Self.redirect("/")
        response.setCookie(cookie(Self.sessionCookie, session.id, request: request, maxAge: nil))
        response.setCookie(cookie(Self.signInCookie, "", request: request, maxAge: 0, path: "/signin"))
        return response
    }

    func command(_ request: Request, _ form: FormData, _ session: ParentSession) async throws(ConsoleError) -> Response {
        let text = try form.required("text", label: "what should happen", maxLength: 256)
        let view = session.view.withLock { $0 }
        var child: String?
        if let asked = form.optional("child") { child = try self.child(asked, of: session, in: view).deviceId }
        _ = try await session.send(command: text, child: child)
        return Self.done(request, redirect: "/")
    }

    func correct(_ request: Request, _ form: FormData, _ session: ParentSession) async throws(ConsoleError) -> Response {
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

    func export(_ form: FormData, _ session: ParentSession) async throws(ConsoleError) -> Response {
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

    func erase(_ form: FormData, _ session: ParentSession) async throws(ConsoleError) -> Response {
        let view = session.view.withLock { $0 }
        let child = try self.child(try form.required("child", label: "child", maxLength: 64), of: session, in: view)
        guard form["confirm"] == child.deviceId else { throw .badForm("tick the box to confirm the erase") }
        let outcome = try await session.privacy(.forget, child: child.deviceId)
        return Self.html(templates.page("receipts", PrivacyPage.receipts(outcome, child: child.name), title: "Erased", session: session, place: .privacy))
    }

    func session(of request: Request) -> ParentSession? { sessions.session(request.cookies[Self.sessionCookie]?.value) }

    /// A child of the parent's families, by device id.
    func child(_ id: String?, of session: ParentSession, in view: FamilyView) throws(ConsoleError) -> Family.Child {
        guard let id, !id.isEmpty else { throw .badForm("no child was chosen") }
        guard let child = view.child(id, of: session.parent) else { throw .notYourChild(String(id.prefix(64))) }
        return child
    }

    /// A signed-in GET page; without a session, the sign-in page.
    func page(_ request: Request, _ render: (ParentSession, FamilyView) throws -> String) -> Response {
        guard let session = session(of: request) else { return Self.redirect("/signin") }
        do {
            return Self.html(try render(session, session.view.withLock { $0 }))
        } catch let error as ConsoleError {
            return problemPage(error, session: session)
        } catch {
            return Self.text("unexpected error", status: .internalServerError)
        }
    }

    /// A POSTed form: size, origin and token checked before `handle` sees it; errors become a page
    /// (or, for the page's script, plain text).
    func respond(
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
            return problemPage(error, session: session)
        } catch {
            return Self.text("unexpected error", status: .internalServerError)
        }
    }

    func readForm(_ request: Request) async throws(ConsoleError) -> FormData {
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

}
