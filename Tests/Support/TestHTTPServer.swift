import Foundation
import Glibc
import Synchronization

/// A minimal HTTP/1.1 server on a free loopback port that records request bodies and answers with
/// scripted status codes (then 200), for webhook tests.
public final class TestHTTPServer: Sendable {
    public let port: Int
    private let listener: Int32
    private let state = Mutex<(statuses: [Int], bodies: [Data], stopped: Bool, closed: Bool)>(([], [], false, false))
    private let finished = DispatchSemaphore(value: 0)

    /// `statuses` answer the first requests in order; later ones get 200. A `closed` server answers
    /// every request with 503 until `open()`, before the scripted statuses.
    public init(statuses: [Int] = [], closed: Bool = false) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestBrokerError.cannotStart("http socket: errno \(errno)") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound, listen(fd, 16) == 0 else {
            close(fd)
            throw TestBrokerError.cannotStart("http bind/listen: errno \(errno)")
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        state.withLock {
            $0.statuses = statuses
            $0.closed = closed
        }
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    deinit { stop() }

    public var url: String { "http://127.0.0.1:\(port)/hook" }
    public var bodies: [Data] { state.withLock { $0.bodies } }

    /// Ends the 503s of a server started `closed`.
    public func open() { state.withLock { $0.closed = false } }

    public func stop() {
        let already = state.withLock { s -> Bool in
            defer { s.stopped = true }
            return s.stopped
        }
        guard !already else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        finished.wait()
    }

    private func serve() {
        defer { finished.signal() }
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if state.withLock({ $0.stopped }) { return }
                continue
            }
            handle(client)
            close(client)
        }
    }

    private func handle(_ client: Int32) {
        var timeout = timeval(tv_sec: 60, tv_usec: 0)  // a ceiling for a stalled client, not a measure of speed
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 65536)
        var request = Data()
        var expected: Int?
        while expected.map({ request.count < $0 }) ?? true {
            let n = read(client, &buffer, buffer.count)
            if n <= 0 { break }
            request.append(contentsOf: buffer[0..<n])
            if expected == nil, let end = request.range(of: Data("\r\n\r\n".utf8)) {
                let head = String(decoding: request[..<end.lowerBound], as: UTF8.self).lowercased()
                let length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                expected = end.upperBound + length
            }
        }
        let bodyStart = request.range(of: Data("\r\n\r\n".utf8))?.upperBound ?? request.endIndex
        let status = state.withLock { s -> Int in
            s.bodies.append(Data(request[bodyStart...]))
            if s.closed { return 503 }
            return s.statuses.isEmpty ? 200 : s.statuses.removeFirst()
        }
        let response = "HTTP/1.1 \(status) \(status == 200 ? "OK" : "Error")\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        _ = response.withCString { write(client, $0, strlen($0)) }
    }
}
