import Foundation

/// Reads chosen top-level members of a JSON object in one pass, checking the syntax of everything
/// else without building it: a fast path for hot payloads. It answers only for plain documents and
/// returns nil for anything it leaves to `JSONDecoder` (escapes in keys or strings, non-ASCII text
/// outside the chosen strings, a chosen member given twice, deep nesting, any invalid input), so the
/// caller falls back to the full decoder, which also words the error.
public enum JSONFieldScanner {
    public enum Value: Sendable, Equatable {
        case string(String)
        case number(Double)
        /// `true`, `false`, `null`, an object or an array.
        case other
    }

    /// The values of `keys`, in their order (nil for a member that is absent).
    public static func scan(_ payload: Data, for keys: [StaticString]) -> [Value?]? {
        payload.withUnsafeBytes { bytes in
            var reader = Reader(bytes: bytes)
            return reader.object(keys)
        }
    }
}

private struct Reader {
    let bytes: UnsafeRawBufferPointer
    var at = 0
    static let maxDepth = 32

    init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    mutating func object(_ keys: [StaticString]) -> [JSONFieldScanner.Value?]? {
        var found = [JSONFieldScanner.Value?](repeating: nil, count: keys.count)
        skipSpace()
        guard take(UInt8(ascii: "{")) else { return nil }
        skipSpace()
        if !take(UInt8(ascii: "}")) {
            repeat {
                skipSpace()
                guard let key = plainString(asciiOnly: true) else { return nil }
                skipSpace()
                guard take(UInt8(ascii: ":")) else { return nil }
                skipSpace()
                if let slot = keys.firstIndex(where: { Self.equal(key, in: bytes, $0) }) {
                    guard found[slot] == nil, let value = chosenValue() else { return nil }
                    found[slot] = value
                } else {
                    guard skipValue(depth: 1) else { return nil }
                }
                skipSpace()
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")) else { return nil }
        }
        skipSpace()
        return at == bytes.count ? found : nil
    }

    private mutating func chosenValue() -> JSONFieldScanner.Value? {
        guard at < bytes.count else { return nil }
        switch bytes[at] {
        case UInt8(ascii: "\""):
            guard let range = plainString(asciiOnly: false),
                let text = String(validating: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
            else { return nil }
            return .string(text)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            guard let range = number(),
                let value = Double(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)), value.isFinite
            else { return nil }
            return .number(value)
        default:
            return skipValue(depth: 1) ? .other : nil
        }
    }

    /// Any value, checked and passed over.
    private mutating func skipValue(depth: Int) -> Bool {
        guard at < bytes.count, depth <= Self.maxDepth else { return false }
        switch bytes[at] {
        case UInt8(ascii: "\""): return plainString(asciiOnly: true) != nil
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number() != nil
        case UInt8(ascii: "t"): return literal("true")
        case UInt8(ascii: "f"): return literal("false")
        case UInt8(ascii: "n"): return literal("null")
        case UInt8(ascii: "["):
            at += 1
            skipSpace()
            if take(UInt8(ascii: "]")) { return true }
            repeat {
                skipSpace()
                guard skipValue(depth: depth + 1) else { return false }
                skipSpace()
            } while take(UInt8(ascii: ","))
            return take(UInt8(ascii: "]"))
        case UInt8(ascii: "{"):
            at += 1
            skipSpace()
            if take(UInt8(ascii: "}")) { return true }
            repeat {
                skipSpace()
                guard plainString(asciiOnly: true) != nil else { return false }
                skipSpace()
                guard take(UInt8(ascii: ":")) else { return false }
                skipSpace()
                guard skipValue(depth: depth + 1) else { return false }
                skipSpace()
            } while take(UInt8(ascii: ","))
            return take(UInt8(ascii: "}"))
        default: return false
        }
    }

    /// The bytes between the quotes of a string without escapes or control characters.
    private mutating func plainString(asciiOnly: Bool) -> Range<Int>? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = at
        while at < bytes.count {
            let byte = bytes[at]
            if byte == UInt8(ascii: "\"") {
                at += 1
                return start..<(at - 1)
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 || (asciiOnly && byte >= 0x80) { return nil }
            at += 1
        }
        return nil
    }

    /// A number as RFC 8259 spells it: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private mutating func number() -> Range<Int>? {
        let start = at
        _ = take(UInt8(ascii: "-"))
        if take(UInt8(ascii: "0")) {
            if digit { return nil }
        } else {
            guard digits() else { return nil }
        }
        if take(UInt8(ascii: ".")) { guard digits() else { return nil } }
        if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
            if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
            guard digits() else { return nil }
        }
        return start..<at
    }

    private var digit: Bool { at < bytes.count && bytes[at] >= UInt8(ascii: "0") && bytes[at] <= UInt8(ascii: "9") }

    private mutating func digits() -> Bool {
        let start = at
        while digit { at += 1 }
        return at > start
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard at + count <= bytes.count, Self.equal(at..<(at + count), in: bytes, word) else { return false }
        at += count
        return true
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard at < bytes.count, bytes[at] == byte else { return false }
        at += 1
        return true
    }

    private mutating func skipSpace() {
        while at < bytes.count, bytes[at] == 0x20 || bytes[at] == 0x0A || bytes[at] == 0x0D || bytes[at] == 0x09 { at += 1 }
    }

    private static func equal(_ range: Range<Int>, in bytes: UnsafeRawBufferPointer, _ word: StaticString) -> Bool {
        guard range.count == word.utf8CodeUnitCount else { return false }
        let expected = UnsafeRawBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        return memcmp(bytes.baseAddress! + range.lowerBound, expected.baseAddress!, range.count) == 0
    }
}
