/// Random, unguessable tokens: session ids and CSRF tokens (256 bits from the system's CSPRNG,
/// written base64url without padding, which a cookie and a form field carry as they are).
enum SessionToken {
    static func make(bytes count: Int = 32) -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        for _ in 0..<count { bytes.append(UInt8.random(in: .min ... .max, using: &generator)) }
        return base64URL(bytes)
    }

    /// Compares in time that depends only on the lengths, not on where the first difference is.
    static func matches(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count, !x.isEmpty else { return false }
        var difference: UInt8 = 0
        for i in x.indices { difference |= x[i] ^ y[i] }
        return difference == 0
    }

    /// Whether `text` has the shape of a token (so that nothing else is ever looked up).
    static func isWellFormed(_ text: String) -> Bool {
        text.utf8.count == 43 && text.utf8.allSatisfy { alphabet.contains($0) }
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    private static func base64URL(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        var i = 0
        while i + 3 <= bytes.count {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            out += [alphabet[Int(n >> 18 & 63)], alphabet[Int(n >> 12 & 63)], alphabet[Int(n >> 6 & 63)], alphabet[Int(n & 63)]]
            i += 3
        }
        switch bytes.count - i {
        case 1:
            let n = UInt32(bytes[i]) << 16
            out += [alphabet[Int(n >> 18 & 63)], alphabet[Int(n >> 12 & 63)]]
        case 2:
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8
            out += [alphabet[Int(n >> 18 & 63)], alphabet[Int(n >> 12 & 63)], alphabet[Int(n >> 6 & 63)]]
        default: break
        }
        return String(decoding: out, as: UTF8.self)
    }
}
