import BrokerAccess
import Foundation
@testable import GuardianConsole
import GuardianShared
import GuardianTestSupport
import HTTPTypes
import HummingbirdTesting
import MQTT
import Testing

/// The console over HTTP against the real broker and services: sign-in as the parent, cookies,
/// CSRF and origin checks, bad input, what each parent may see, the broker's kick, sign-out, expiry.
@Suite("family console: sessions and security over a real broker", .serialized)
struct ConsoleSessionTests {
    @Test("a wrong password is refused by the broker; the right one opens a session with a safe cookie")
    func signIn() async throws {
        let h = try await ConsoleHarness()
        try await h.start([])
        let visitor = ConsoleVisitor(port: h.port)
        let refused = try await visitor.signIn("parent-alex", "not-the-password")
        #expect(refused.head.status == .unauthorized)
        #expect(refused.text.contains("Wrong Guardian id or password."))
        #expect(visitor.cookies["guardian_session"] == nil && h.console.signedIn == 0)
        let unknown = try await visitor.signIn("nobody-here", "x")
        #expect(unknown.head.status == .unauthorized)
        for _ in 1..<5 { _ = try await visitor.signIn("nobody-here", "x") }
        let throttled = try await visitor.signIn("nobody-here", "x")
        #expect(throttled.head.status == .tooManyRequests && throttled.text.contains("Too many wrong passwords"))
        #expect(try await visitor.signIn("nobody-here", "<script>").text.contains("Too many wrong passwords"))

        let accepted = try await visitor.signIn("parent-alex", h.broker.password(for: "parent-alex")!)
        #expect(accepted.head.status == .seeOther)
        let cookie = try #require(accepted.headers[values: .setCookie].first { $0.hasPrefix("guardian_session=") })
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && !cookie.contains("Secure"))
        #expect(SessionToken.isWellFormed(visitor.cookies["guardian_session"] ?? ""))
        #expect(h.console.signedIn == 1)
        let first = try #require(h.console.sessions.session(visitor.cookies["guardian_session"]))
        var others: [ConsoleVisitor] = []
        for _ in 0..<SessionStore.maxPerParent {
            let other = ConsoleVisitor(port: h.port)
            #expect(try await other.signIn("parent-alex", h.broker.password(for: "parent-alex")!).head.status == .seeOther)
            others.append(other)
        }
        #expect(h.console.signedIn == SessionStore.maxPerParent, "one more sign-in signs out the parent's least recently used session")
        #expect(!first.client.isConnected && h.console.sessions.session(visitor.cookies["guardian_session"]) == nil)
        for other in others { await other.close() }
        _ = try await visitor.signIn("parent-alex", h.broker.password(for: "parent-alex")!)
        let home = try await visitor.get("/")
        #expect(home.head.status == .ok)
        #expect(home.headers[.contentSecurityPolicy]?.contains("default-src 'none'") == true)
        #expect(home.text.contains("Sam"))
        await visitor.close()
        await h.shutdown()
    }

    @Test("over TLS the cookies are Secure: with an https public URL (whose origin alone may post), or behind a TLS proxy that says so")
    func secureCookies() async throws {
        let direct = try await ConsoleHarness { $0.publicURL = URL(string: "https://guardian.home:8443") }
        try await direct.start([])
        let visitor = ConsoleVisitor(port: direct.port)
        let page = try await visitor.get("/signin")
        #expect(page.headers[values: .setCookie].allSatisfy { $0.contains("Secure") && $0.contains("HttpOnly") && $0.contains("SameSite=Strict") })
        let token = visitor.cookies["guardian_signin"] ?? ""
        let body = "token=\(token)&user=parent-alex&password=\(direct.broker.password(for: "parent-alex")!)"
        let wrongOrigin = try await visitor.post("/signin", body, headers: [.contentType: "application/x-www-form-urlencoded", .origin: "http://127.0.0.1:\(direct.port)"])
        #expect(wrongOrigin.head.status == .forbidden)
        let signedIn = try await visitor.post("/signin", body, headers: [.contentType: "application/x-www-form-urlencoded", .origin: "https://guardian.home:8443"])
        #expect(signedIn.head.status == .seeOther)
        #expect(signedIn.headers[values: .setCookie].first { $0.hasPrefix("guardian_session=") }?.contains("Secure") == true)
        await visitor.close()
        await direct.shutdown()

        let proxied = try await ConsoleHarness { $0.behindTLSProxy = true }
        try await proxied.start([])
        let client = ConsoleVisitor(port: proxied.port)
        #expect(try await client.get("/signin").headers[values: .setCookie].allSatisfy { !$0.contains("Secure") })
        let viaProxy = try await client.client.execute(.init("/signin", method: .get, authority: client.host, headers: [.xForwardedProto: "https"]))
        #expect(viaProxy.headers[values: .setCookie].allSatisfy { $0.contains("Secure") })
        await client.close()
        await proxied.shutdown()
    }

    @Test("every POST needs the session's token and the same origin; garbage and oversized forms get a clear error")
    func forms() async throws {
        let h = try await ConsoleHarness()
        try await h.start(["command-router"])
        let visitor = ConsoleVisitor(port: h.port)
        _ = try await visitor.signIn("parent-alex", h.broker.password(for: "parent-alex")!)
        let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
        #expect(try await visitor.post("/command", "text=Block+all+games").head.status == .forbidden)
        #expect(try await visitor.post("/command", "csrf=\(String(repeating: "A", count: 43))&text=x").head.status == .forbidden)
        var crossSite = form
        crossSite[.origin] = "https://evil.example"
        #expect(try await visitor.post("/command", "csrf=\(visitor.csrf)&text=x", headers: crossSite).head.status == .forbidden)
        var fetchSite = form
        fetchSite[HTTPField.Name("Sec-Fetch-Site")!] = "cross-site"
        #expect(try await visitor.post("/command", "csrf=\(visitor.csrf)&text=x", headers: fetchSite).head.status == .forbidden)
        #expect(try await visitor.post("/command", "csrf=\(visitor.csrf)&text=%ZZ").head.status == .badRequest)
        #expect(try await visitor.post("/command", "csrf=\(visitor.csrf)&text=").head.status == .badRequest)
        #expect(try await visitor.post("/command", "csrf=\(visitor.csrf)&text=x&child=phone-alice").head.status == .notFound)
        let big = try await visitor.post("/command", "csrf=\(visitor.csrf)&text=" + String(repeating: "a", count: 40_000))
        #expect(big.head.status == .contentTooLarge)
        #expect(big.text.contains("too large"))
        var json = form
        json[.contentType] = "application/json"
        #expect(try await visitor.post("/command", "{}", headers: json).head.status == .badRequest)
        #expect(try await visitor.get("/day?child=tablet-sam&date=%3Cscript%3E").head.status == .badRequest)
        #expect(try await visitor.get("/day?child=%3Cscript%3E").head.status == .notFound)

        let hostile = "<script>alert(1)</script> block games"
        var sameOrigin = form
        sameOrigin[.origin] = "http://\(visitor.host)"
        sameOrigin[HTTPField.Name("Sec-Fetch-Site")!] = "same-origin"
        let sent = try await visitor.post("/command", "csrf=\(visitor.csrf)&text=\(hostile.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)", headers: sameOrigin)
        #expect(sent.head.status == .seeOther)
        #expect(await eventually { ((try? await visitor.get("/"))?.text ?? "").contains("&lt;script&gt;alert(1)&lt;/script&gt;") })
        let page = (try await visitor.get("/").text)
        #expect(!page.contains("<script>alert"))
        await visitor.close()
        await h.shutdown()
    }

    @Test("the router's question is answered in place: with two children, the answer names one and the command is accepted")
    func clarifyInPlace() async throws {
        let h = try await ConsoleHarness()
        try await h.setFamily("fam-sam", parents: ["parent-alex"], children: [.init(deviceId: "tablet-sam", name: "Sam"), .init(deviceId: "tablet-kim", name: "Kim")])
        try await h.start(["command-router"])
        let visitor = ConsoleVisitor(port: h.port)
        _ = try await visitor.signIn("parent-alex", h.broker.password(for: "parent-alex")!)
        #expect(await eventually { ((try? await visitor.get("/"))?.text ?? "").contains("Kim") })
        #expect(try await visitor.post("/command", "csrf=\(visitor.csrf)&text=Block+all+games+for+2+hours").head.status == .seeOther)
        #expect(await eventually { ((try? await visitor.get("/"))?.text ?? "").contains("data-status=\"clarify\"") })
        let page = try await visitor.get("/").text
        #expect(page.contains("Which child: Sam or Kim?") && page.contains("class=\"answer\""))
        let answer = try await visitor.post("/command", "csrf=\(visitor.csrf)&text=Block+all+games+for+2+hours&child=tablet-kim", headers: [.contentType: "application/x-www-form-urlencoded", .consoleFetch: "1"])
        #expect(answer.head.status == .noContent)
        #expect(await eventually { ((try? await visitor.get("/"))?.text ?? "").contains("data-status=\"accepted\"") })
        #expect(await eventually { ((try? await visitor.get("/"))?.text ?? "").contains("Games blocked") })
        await visitor.close()
        await h.shutdown()
    }

    @Test("a parent sees only their own family, even though the console subscribes with wildcards")
    func otherFamilySeesNothing() async throws {
        let h = try await ConsoleHarness()
        try await h.start(["ingest"])
        let alex = ConsoleVisitor(port: h.port), bo = ConsoleVisitor(port: h.port)
        _ = try await alex.signIn("parent-alex", h.broker.password(for: "parent-alex")!)
        let boSignIn = try await bo.signIn("parent-bo", h.otherParent.password)
        #expect(boSignIn.head.status == .seeOther)
        let sam = try await h.broker.connectedClient("tablet-sam")
        let al = try await h.broker.connectedClient("phone-alice")
        try await sam.publish("guardian/devices/tablet-sam/state", payload: Data(#"{"ts": "\#(Timestamp.now().rfc3339)", "batteryLevel": 0.42}"#.utf8))
        try await al.publish("guardian/devices/phone-alice/state", payload: Data(#"{"ts": "\#(Timestamp.now().rfc3339)", "batteryLevel": 0.77}"#.utf8))
        #expect(await eventually { ((try? await alex.get("/"))?.text ?? "").contains("42%") })
        #expect(await eventually { ((try? await bo.get("/"))?.text ?? "").contains("77%") })
        let boPage = (try await bo.get("/").text)
        #expect(!boPage.contains("tablet-sam") && !boPage.contains("Sam") && !boPage.contains("42%"))
        #expect(try await bo.get("/day?child=tablet-sam").head.status == .notFound)
        #expect(try await bo.get("/privacy/erase?child=tablet-sam").head.status == .notFound)
        let session = try #require(h.console.sessions.session(bo.cookies["guardian_session"]))
        let view = session.view.withLock { $0 }
        #expect(view.devices["tablet-sam"] == nil && view.families["fam-sam"] == nil, "the broker delivered another family's data")
        await sam.shutdown()
        await al.shutdown()
        await alex.close()
        await bo.close()
        await h.shutdown()
    }

    @Test("the parent's connection survives the broker's kick when the family role is remade")
    func survivesKick() async throws {
        let h = try await ConsoleHarness()
        try await h.start([])
        let visitor = ConsoleVisitor(port: h.port)
        _ = try await visitor.signIn("parent-alex", h.broker.password(for: "parent-alex")!)
        let session = try #require(h.console.sessions.session(visitor.cookies["guardian_session"]))
        #expect(session.client.statistics.connects == 1)
        try await h.setFamily("fam-sam", parents: ["parent-alex"], children: [.init(deviceId: "tablet-sam", name: "Sam"), .init(deviceId: "tablet-kim", name: "Kim")])
        #expect(await eventually { session.client.statistics.connects >= 2 && session.client.isConnected })
        let policy = #"{"version": 9, "updatedAt": "2026-11-22T14:00:00.000Z", "restrictions": [{"id": "k-shutdown", "kind": "shutdown", "categories": ["games"], "commandId": "k"}]}"#
        try await h.admin.publish("guardian/children/tablet-kim/policy", payload: Data(policy.utf8), retain: true)
        #expect(await eventually { ((try? await visitor.get("/"))?.text ?? "").contains("Games blocked") })
        await visitor.close()
        await h.shutdown()
    }

    @Test("a parent whose account is removed loses the session: the broker refuses the reconnect, the console closes it")
    func revokedParent() async throws {
        let h = try await ConsoleHarness(connectionGrace: .seconds(1))
        try await h.start([])
        let visitor = ConsoleVisitor(port: h.port)
        _ = try await visitor.signIn("parent-bo", h.otherParent.password)
        let session = try #require(h.console.sessions.session(visitor.cookies["guardian_session"]))
        #expect(try await h.enrolment.remove("parent-bo"))
        #expect(await eventually { h.console.signedIn == 0 })
        #expect(try await visitor.get("/").head.status == .seeOther)
        #expect(!session.client.isConnected)
        await visitor.close()
        await h.shutdown()
    }

    @Test("signing out closes the parent's broker connection and the session")
    func signOut() async throws {
        let h = try await ConsoleHarness()
        try await h.start([])
        let visitor = ConsoleVisitor(port: h.port)
        _ = try await visitor.signIn("parent-alex", h.broker.password(for: "parent-alex")!)
        let cookie = visitor.cookies["guardian_session"]
        let live = try #require(h.console.sessions.session(cookie))
        #expect(live.client.isConnected)
        let out = try await visitor.post("/signout", "csrf=\(visitor.csrf)")
        #expect(out.head.status == .seeOther && out.headers[.location] == "/signin?signedout=1")
        #expect(!live.client.isConnected)
        #expect(h.console.sessions.session(cookie) == nil)
        visitor.cookies["guardian_session"] = cookie
        #expect(try await visitor.get("/").head.status == .seeOther)
        await visitor.close()
        await h.shutdown()
    }

    @Test("an idle session expires and closes the parent's broker connection")
    func idleExpiry() async throws {
        let h = try await ConsoleHarness(idleExpiry: .seconds(1))
        try await h.start([])
        let visitor = ConsoleVisitor(port: h.port)
        #expect(try await visitor.signIn("parent-alex", h.broker.password(for: "parent-alex")!).head.status == .seeOther)
        let cookie = visitor.cookies["guardian_session"]
        #expect(cookie != nil)
        // On a slow machine the second may already have passed; either way the session goes, with its connection.
        let session = h.console.sessions.session(cookie)
        #expect(await eventually { h.console.signedIn == 0 && session?.client.isConnected != true })
        #expect(try await visitor.get("/").head.status == .seeOther)
        #expect(h.console.sessions.session(cookie) == nil)
        await visitor.close()
        await h.shutdown()
    }
}
