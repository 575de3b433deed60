import Foundation
import Logging
import MCP
import NIOCore
import NIOHTTP1
import NIOPosix
import ServiceLifecycle

/// `guardian-mcp` over MCP's Streamable HTTP transport: `POST/GET/DELETE {endpoint}` on one port,
/// one MCP session (server and transport from the SDK) per client that initialises.
///
/// Sessions idle for `sessionTimeout` are closed. Runs until graceful shutdown.
public final class MCPHTTPEndpoint: Service, Sendable {
    public let host: String
    public let endpoint: String
    let requestedPort: Int
    let sessions: MCPSessions
    let logger: Logger
    private let bound = AsyncStream<Int>.makeStream()

    /// `makeServer` builds a configured MCP server (tools and handlers) for each new session.
    public init(
        host: String, port: Int, endpoint: String = "/mcp", sessionTimeout: Duration = .seconds(3600), logger: Logger,
        makeServer: @escaping @Sendable () async -> Server
    ) {
        self.host = host
        requestedPort = port
        self.endpoint = endpoint
        self.logger = logger
        sessions = MCPSessions(timeout: sessionTimeout, logger: logger, makeServer: makeServer)
    }

    /// The port it listens on, once bound (useful with port 0).
    public func port() async -> Int? {
        for await port in bound.stream { return port }
        return nil
    }

    public func run() async throws {
        let group = MultiThreadedEventLoopGroup.singleton
        let server = try await ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: host, port: requestedPort) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    return try NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>(wrappingChannelSynchronously: channel)
                }
            }
        let port = server.channel.localAddress?.port ?? requestedPort
        bound.continuation.yield(port)
        bound.continuation.finish()
        logger.notice("MCP over HTTP", metadata: ["http.url": "http://\(host):\(port)\(endpoint)"])
        try await withGracefulShutdownHandler {
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask { await self.sessions.expireIdle() }
                try await server.executeThenClose { connections in
                    for try await connection in connections {
                        group.addTask { await self.serve(connection) }
                    }
                }
                group.cancelAll()
            }
        } onGracefulShutdown: {
            server.channel.close(promise: nil)
            // Open event streams end with their sessions, which lets their connections finish.
            Task { await self.sessions.closeAll() }
        }
        await sessions.closeAll()
    }

    /// One keep-alive connection: requests in order, each answered in full before the next.
    private func serve(_ connection: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>) async {
        do {
            try await connection.executeThenClose { inbound, outbound in
                var head: HTTPRequestHead?
                var body = ByteBuffer()
                for try await part in inbound {
                    switch part {
                    case .head(let requestHead):
                        head = requestHead
                        body.clear()
                    case .body(var chunk):
                        guard body.readableBytes + chunk.readableBytes <= Self.maxBodyBytes else {
                            try await write(.error(statusCode: 413, .invalidRequest("request body over \(Self.maxBodyBytes) bytes")), version: .http1_1, to: outbound)
                            return
                        }
                        body.writeBuffer(&chunk)
                    case .end:
                        guard let requestHead = head else { continue }
                        head = nil
                        let response = await respond(to: requestHead, body: body)
                        try await write(response, version: requestHead.version, to: outbound)
                        if !requestHead.isKeepAlive { return }
                    }
                }
            }
        } catch {
            logger.debug("MCP connection closed", metadata: ["error": "\(error)"])
        }
    }

    static let maxBodyBytes = 4 * 1024 * 1024

    private func respond(to head: HTTPRequestHead, body: ByteBuffer) async -> HTTPResponse {
        let path = head.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? head.uri
        guard path == endpoint else { return .error(statusCode: 404, .invalidRequest("not found: the MCP endpoint is \(endpoint)")) }
        var headers: [String: String] = [:]
        for (name, value) in head.headers { headers[name] = headers[name].map { "\($0), \(value)" } ?? value }
        let request = HTTPRequest(
            method: head.method.rawValue, headers: headers, body: body.readableBytes > 0 ? Data(body.readableBytesView) : nil, path: path)
        return await sessions.handle(request)
    }

    private func write(_ response: HTTPResponse, version: HTTPVersion, to outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>) async throws {
        var head = HTTPResponseHead(version: version, status: HTTPResponseStatus(statusCode: response.statusCode))
        for (name, value) in response.headers { head.headers.add(name: name, value: value) }
        switch response {
        case .stream(let events, _):
            try await outbound.write(.head(head))
            do {
                for try await event in events { try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: event)))) }
            } catch {
                logger.debug("MCP event stream ended", metadata: ["error": "\(error)"])
            }
        default:
            let body = response.bodyData ?? Data()
            head.headers.replaceOrAdd(name: "content-length", value: String(body.count))
            try await outbound.write(.head(head))
            if !body.isEmpty { try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: body)))) }
        }
        try await outbound.write(.end(nil))
    }
}
