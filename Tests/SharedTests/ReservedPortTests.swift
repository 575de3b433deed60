import Foundation
import Glibc
import GuardianTestSupport
import Testing

@Suite("Test brokers keep their ports")
struct ReservedPortTests {
    /// What another process asking for this port gets: 0 when it could bind it, else errno.
    private func plainBind(_ port: Int) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return bound == 0 ? 0 : errno
    }

    @Test("a reserved port refuses connections and nobody else can bind it; a broker's port stays its own while it is stopped")
    func reservation() throws {
        let reserved = try ReservedPort()
        #expect(!TestBroker.canConnect(port: reserved.port))
        #expect(plainBind(reserved.port) == EADDRINUSE)
        #expect(try ReservedPort().port != reserved.port)

        let broker = try TestBroker()
        #expect(TestBroker.canConnect(port: broker.port))
        broker.stop()
        #expect(!TestBroker.canConnect(port: broker.port))
        #expect(plainBind(broker.port) == EADDRINUSE)
        try broker.start()
        #expect(TestBroker.canConnect(port: broker.port))
        broker.stop()
    }
}
