import Foundation
import Glibc

/// A TCP port on 127.0.0.1 held for as long as this value lives.
///
/// The port is bound with `SO_REUSEADDR` and never listens. So a connection to it is refused until
/// a listener takes it; the kernel hands it to nobody who asks for a free port (`bind` to port 0) or
/// connects out; and a server that sets `SO_REUSEADDR` itself (mosquitto does, for every listener)
/// can still bind it on purpose — again after a restart, which a port merely found free a moment
/// ago cannot promise on a busy machine.
public final class ReservedPort: @unchecked Sendable {
    public let port: Int
    private let fd: Int32

    /// Reserves a free port chosen by the kernel.
    public init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestBrokerError.cannotStart("socket: errno \(errno)") }
        var reuse: Int32 = 1
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size)) == 0
                    && bind(fd, pointer, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard bound else {
            let code = errno
            close(fd)
            throw TestBrokerError.cannotStart("bind: errno \(code)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        self.fd = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(fd) }
}
