import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// The family console: a web app where a parent signs in with their own Guardian id and password
/// and sees, live, what the broker lets that parent read. It holds no credentials of its own.
public final class Console: Sendable {
    public let settings: ConsoleSettings
    let sessions: SessionStore
    let throttle = SignInThrottle()
    let templates: ConsoleTemplates
    let logger: Logger
    private let bound = AsyncStream<Int>.makeStream(bufferingPolicy: .bufferingNewest(1))

    /// Throws if a page template does not parse.
    public init(settings: ConsoleSettings, logger: Logger) throws {
        self.settings = settings
        self.logger = logger
        templates = try ConsoleTemplates()
        sessions = SessionStore(idleExpiry: settings.idleExpiry, connectionGrace: settings.connectionGrace, logger: logger)
    }

    /// The web server, which runs until graceful shutdown.
    public func application() -> some ApplicationProtocol {
        Application(
            router: makeRouter(),
            configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: nil),
            onServerRunning: { [bound, logger, settings] channel in
                let port = channel.localAddress?.port ?? settings.port
                bound.continuation.yield(port)
                logger.notice("family console listening", metadata: ["http.url": "http://\(settings.host):\(port)/"])
            },
            logger: logger)
    }

    /// The long-running parts, in start order: graceful shutdown runs in reverse, so sessions (and
    /// the parents' broker connections and live streams) close before the web server stops.
    public func services() -> [any Service] { [application(), sessions] }

    /// Runs until SIGTERM or SIGINT.
    public func run() async throws {
        let group = ServiceGroup(
            configuration: .init(
                services: services().map { .init(service: $0) }, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }

    /// The port the server listens on, once bound (useful with port 0). Ask once: it is read from a
    /// one-reader stream.
    public func port() async -> Int? {
        for await port in bound.stream { return port }
        return nil
    }

    /// How many parents are signed in.
    public var signedIn: Int { sessions.count }
}
