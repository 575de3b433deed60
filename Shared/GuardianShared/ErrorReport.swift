import Foundation

/// What a service publishes on `guardian/errors/{service}` for every payload it rejects.
public struct ErrorReport: Codable, Sendable, Equatable {
    public var ts: Timestamp
    public var service: String
    public var topic: String
    public var reason: String
    /// The first 256 bytes of the payload, non-printable bytes escaped as `\xNN`.
    public var excerpt: String

    public init(ts: Timestamp = .now(), service: String, topic: String, reason: String, payload: Data) {
        self.ts = ts
        self.service = service
        self.topic = ErrorReport.escape(Data(topic.utf8.prefix(256)))
        self.reason = reason
        self.excerpt = ErrorReport.escape(payload.prefix(256))
    }

    /// Printable ASCII stays as is; every other byte (and `\`) becomes `\xNN`.
    public static func escape(_ bytes: some Collection<UInt8>) -> String {
        var out = ""
        out.reserveCapacity(bytes.count)
        for byte in bytes {
            if byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\\") {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "\\x" + String(byte, radix: 16, uppercase: false).leftPadded(to: 2)
            }
        }
        return out
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}
