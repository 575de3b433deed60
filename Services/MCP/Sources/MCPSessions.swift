import Foundation
import Logging
import MCP

/// The MCP sessions of the HTTP endpoint: an `initialize` request opens one (its own server and
/// transport); later requests name it in `Mcp-Session-Id`.
actor MCPSessions {
    struct Session {
        let server: Server
        let transport: StatefulHTTPServerTransport
        var lastUsed: ContinuousClock.Instant
    }

    private struct FixedSessionID: SessionIDGenerator {
        let id: String
        func generateSessionID() -> String { id }
    }

    private var sessions: [String: Session] = [:]
    let timeout: Duration
    let logger: Logger
    let makeServer: @Sendable () async -> Server

    init(timeout: Duration, logger: Logger, makeServer: @escaping @Sendable () async -> Server) {
        self.timeout = timeout
        self.logger = logger
        self.makeServer = makeServer
    }

    var count: Int { sessions.count }

    func handle(_ request: HTTPRequest) async -> HTTPResponse {
        if let id = request.header(HTTPHeaderName.sessionID) {
            guard var session = sessions[id] else { return .error(statusCode: 404, .invalidRequest("session \(id) not found or expired")) }
            session.lastUsed = .now
            sessions[id] = session
            let response = await session.transport.handleRequest(request)
            if request.method.uppercased() == "DELETE" && response.statusCode == 200 { await close(id) }
            return response
        }
        guard request.method.uppercased() == "POST", let body = request.body, Self.isInitialize(body) else {
            return .error(statusCode: 400, .invalidRequest("missing \(HTTPHeaderName.sessionID) header: start with an initialize request"))
        }
        return await open(request)
    }

    /// Whether a JSON-RPC body is an `initialize` request.
    static func isInitialize(_ body: Data) -> Bool {
        struct Message: Decodable { var method: String? }
        return (try? JSONDecoder().decode(Message.self, from: body))?.method == "initialize"
    }

    private func open(_ request: HTTPRequest) async -> HTTPResponse {
        let id = UUID().uuidString
        let transport = StatefulHTTPServerTransport(sessionIDGenerator: FixedSessionID(id: id), logger: logger)
        let server = await makeServer()
        do {
            try await server.start(transport: transport)
        } catch {
            await transport.disconnect()
            return .error(statusCode: 500, .internalError("cannot start an MCP session: \(error)"))
        }
        sessions[id] = Session(server: server, transport: transport, lastUsed: .now)
        let response = await transport.handleRequest(request)
        if case .error = response { await close(id) }
        logger.info("MCP session opened", metadata: ["mcp.session": "\(id)"])
        return response
    }

    private func close(_ id: String) async {
        guard let session = sessions.removeValue(forKey: id) else { return }
        await session.server.stop()
        await session.transport.disconnect()
    }

    func closeAll() async {
        for id in Array(sessions.keys) { await close(id) }
    }

    /// Closes sessions idle for longer than the timeout, until cancelled.
    func expireIdle() async {
        while !Task.isCancelled {
            do { try await Task.sleep(for: min(timeout, .seconds(60))) } catch { return }
            let now = ContinuousClock.now
            for (id, session) in sessions where now - session.lastUsed > timeout { await close(id) }
        }
    }
}
