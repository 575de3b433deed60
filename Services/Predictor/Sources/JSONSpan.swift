import Foundation

/// Finds the raw bytes of a top-level member of a JSON object without parsing the rest, so a
/// checksum can be taken over exactly what the sender wrote.
enum JSONSpan {
    /// The bytes of `key`'s value in the top-level object `data`, or nil.
    static func rawValue(of key: String, in data: Data) -> Data? {
        let bytes = [UInt8](data)
        var i = 0
        func skipSpace() { while i < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[i]) { i += 1 } }
        /// Skips one JSON value starting at `i`; false when malformed.
        func skipValue() -> Bool {
            skipSpace()
            guard i < bytes.count else { return false }
            if bytes[i] == UInt8(ascii: "\"") { return skipString() }
            if bytes[i] == UInt8(ascii: "{") || bytes[i] == UInt8(ascii: "[") {
                var depth = 0
                while i < bytes.count {
                    switch bytes[i] {
                    case UInt8(ascii: "\""):
                        guard skipString() else { return false }
                        continue
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        depth -= 1
                        if depth == 0 {
                            i += 1
                            return true
                        }
                    default: break
                    }
                    i += 1
                }
                return false
            }
            while i < bytes.count, ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09].contains(bytes[i]) { i += 1 }
            return true
        }
        func skipString() -> Bool {
            i += 1
            while i < bytes.count {
                if bytes[i] == UInt8(ascii: "\\") {
                    i += 2
                    continue
                }
                if bytes[i] == UInt8(ascii: "\"") {
                    i += 1
                    return true
                }
                i += 1
            }
            return false
        }
        skipSpace()
        guard i < bytes.count, bytes[i] == UInt8(ascii: "{") else { return nil }
        i += 1
        while true {
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { return nil }
            let keyStart = i
            guard skipString() else { return nil }
            let name = try? JSONDecoder().decode(String.self, from: Data(bytes[keyStart..<i]))
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return nil }
            i += 1
            skipSpace()
            let valueStart = i
            guard skipValue() else { return nil }
            if name == key { return Data(bytes[valueStart..<i]) }
            skipSpace()
            guard i < bytes.count else { return nil }
            if bytes[i] == UInt8(ascii: ",") {
                i += 1
            } else {
                return nil
            }
        }
    }
}
