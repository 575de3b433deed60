import BrokerAccess
import Foundation
@testable import GuardianConsole
import GuardianCommandRouter
import GuardianIngest
import GuardianNotifier
import GuardianShared
import GuardianTestSupport
import GuardianTimeline
import HTTPTypes
import HummingbirdTesting
import MQTT
import NIOCore
import ServiceLifecycle

/// A secured broker (generated accounts), ingest, timeline, command-router and notifier in this
/// process, two families whose parents got their family role from the Enrolment API, and the
/// console on a free port. `parent-alex` is Sam's (`tablet-sam`); `parent-bo`, enrolled here, is
/// Al's (`phone-alice`).
final class ConsoleHarness: @unchecked Sendable {
    static let services = ["ingest", "timeline", "command-router", "notifier"]

    let broker = try! TestBroker(access: .secured)
    let admin: MQTTClient
    let enrolment: Enrolment
    let otherParent: BrokerAccount
    var directories: [String: TemporaryDirectory] = [:]
    var tasks: [String: Task<Void, any Error>] = [:]
    let console: Console
    private var consoleTask: Task<Void, any Error>?
    private var consoleGroup: ServiceGroup?
    private(set) var port = 0

    init(
        idleExpiry: Duration = .seconds(1800), connectionGrace: Duration = .seconds(60), configure: (inout ConsoleSettings) -> Void = { _ in }
    ) async throws {
        admin = try await broker.connectedClient("admin")
        enrolment = try await Enrolment(client: admin)
        otherParent = try await enrolment.add("parent-bo", role: .parent)
        var settings = try ConsoleSettings(environment: ["GUARDIAN_MQTT_URL": broker.url, "GUARDIAN_CONSOLE_PORT": "0"])
        settings.idleExpiry = idleExpiry
        settings.connectionGrace = connectionGrace
        configure(&settings)
        settings.privacyTimeout = .seconds(30)
        console = try Console(settings: settings, logger: .quiet)
        try await setFamily("fam-sam", parents: ["parent-alex"], children: [.init(deviceId: "tablet-sam", name: "Sam")])
        try await setFamily("fam-bo", parents: ["parent-bo"], children: [.init(deviceId: "phone-alice", name: "Al")])
        let zone = DangerZone(name: "Arcade", lat: 48.8566, lon: 2.3522, radius: 200, merchant: "Arcade", regretRate: 0.95)
        try await admin.publish("guardian/zones/z-arcade", payload: GuardianJSON.encode(zone), retain: true)
    }

    /// As `guardian family set` does as admin: the retained family, and the family role for its parents.
    func setFamily(_ id: String, parents: [String], children: [Family.Child]) async throws {
        try await admin.publish("guardian/families/\(id)", payload: GuardianJSON.encode(Family(parents: parents, children: children)), retain: true)
        try await enrolment.setFamily(id, parents: parents, children: children.map(\.deviceId))
    }

    func start(_ names: [String] = ConsoleHarness.services) async throws {
        for name in names {
            let directory = try TemporaryDirectory()
            directories[name] = directory
            var extra: [String: String] = [:]
            if name == "timeline" { extra["GUARDIAN_TIMELINE_RETRAIN_DELAY_MS"] = "0" }
            let config = try broker.serviceConfig(service: name, dataDirectory: directory.url, extra: extra)
            let service: any Service & Sendable =
                switch name {
                case "ingest": try IngestService(config: config, logger: .quiet)
                case "timeline": try TimelineService(config: config, logger: .quiet)
                case "command-router": try CommandRouterService(config: config, logger: .quiet)
                default: try NotifierService(config: config, logger: .quiet)
                }
            tasks[name] = try await startInProcess(service, name: name, observer: admin, timeout: .seconds(120))
        }
        let group = ServiceGroup(configuration: .init(services: console.services().map { .init(service: $0) }, logger: .quiet))
        consoleGroup = group
        consoleTask = Task { try await group.run() }
        port = await console.port() ?? 0
    }

    /// Stops the console as SIGTERM would (a graceful shutdown: sessions, then the web server; a
    /// cancelled server could drop open connections unfinished), then the services and the broker.
    func shutdown() async {
        await consoleGroup?.triggerGracefulShutdown()
        _ = try? await consoleTask?.value
        for task in tasks.values { await stopInProcess(task) }
        await admin.shutdown()
        broker.stop()
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Publishes the sample day's events as ingest would (with a Paris profile), then asks the
    /// timeline to build it; returns once the day is published retained.
    func seedDay(_ device: String) async throws -> String {
        let days = try await MessageCollector(admin, "guardian/timeline/\(device)/days/+")
        let ts0 = Timestamp(rfc3339: "2026-11-01T00:00:00Z")!
        try await admin.publish(
            "guardian/events/\(device)/profile",
            payload: GuardianJSON.encode(DeviceEvent(id: "p", deviceId: device, ts: ts0, receivedAt: ts0, body: DeviceProfile(timezone: "Europe/Paris", role: .child))),
            retain: true)
        try await SampleDay.publishEvents(SampleDay.lines, device: device, with: admin)
        try await admin.publish("guardian/timeline/\(device)/generate", payload: Data("{}".utf8))
        await days.wait(for: 1, timeout: .seconds(60))
        return "2026-11-18"
    }
}

/// A browser's side of the console for tests without a browser: cookies kept, redirects not followed.
final class ConsoleVisitor: @unchecked Sendable {
    let client: TestClient
    let host: String
    var cookies: [String: String] = [:]
    var csrf = ""

    init(port: Int) {
        client = TestClient(host: "127.0.0.1", port: port)
        client.connect()
        host = "127.0.0.1:\(port)"
    }

    func close() async { try? await client.shutdown() }

    private func headers(_ extra: HTTPFields) -> HTTPFields {
        var headers = extra
        if !cookies.isEmpty { headers[.cookie] = cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ") }
        return headers
    }

    private func keep(_ response: TestClient.Response) {
        for field in response.headers where field.name == .setCookie {
            let pair = field.value.split(separator: ";")[0].split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let value = pair.count > 1 ? String(pair[1]) : ""
            if value.isEmpty || field.value.contains("Max-Age=0") { cookies[String(pair[0])] = nil } else { cookies[String(pair[0])] = value }
        }
        let body = response.text
        if let range = body.range(of: "name=\"csrf\" value=\"") {
            csrf = String(body[range.upperBound...].prefix { $0 != "\"" })
        }
    }

    func get(_ path: String) async throws -> TestClient.Response {
        let response = try await client.execute(.init(path, method: .get, authority: host, headers: headers([:])))
        keep(response)
        return response
    }

    func post(_ path: String, _ form: String, headers extra: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]) async throws -> TestClient.Response {
        let response = try await client.execute(.init(path, method: .post, authority: host, headers: headers(extra), body: ByteBuffer(string: form)))
        keep(response)
        return response
    }

    /// Signs in through the form, as a person would.
    func signIn(_ user: String, _ password: String) async throws -> TestClient.Response {
        let page = try await get("/signin")
        let body = page.text
        let token = body.range(of: "name=\"token\" value=\"").map { String(body[$0.upperBound...].prefix { $0 != "\"" }) } ?? ""
        let response = try await post("/signin", "token=\(token)&user=\(user)&password=\(password.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")")
        if response.head.status == .seeOther { _ = try await get("/") }
        return response
    }
}

extension TestClient.Response {
    var text: String { body.map { String(buffer: $0) } ?? "" }
}
