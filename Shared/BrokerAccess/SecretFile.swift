import Foundation
import Glibc

/// A file only its owner may read, replaced atomically.
enum SecretFile {
    static func write(_ data: Data, to path: String) throws(BrokerAccessError) {
        let temporary = "\(path).new-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .file(path: temporary, reason: String(cString: strerror(errno))) }
        let written = data.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        let reason = written == data.count ? nil : String(cString: strerror(errno))
        close(fd)
        if let reason {
            unlink(temporary)
            throw .file(path: temporary, reason: reason)
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw .file(path: path, reason: reason)
        }
    }
}
