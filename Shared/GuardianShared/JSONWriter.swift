import Foundation

/// Writes JSON the way `GuardianJSON.encoder()` does (sorted keys, unescaped slashes, integral numbers
/// without a fraction), without going through `Encoder`: for payloads written once per message on a
/// hot path, where `JSONEncoder` costs more than the rest of the handling.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        if value.utf8.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            bytes.append(contentsOf: value.utf8)
        } else {
            escaped(value)
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func escaped(_ value: String) {
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): raw(#"\""#)
            case UInt8(ascii: "\\"): raw(#"\\"#)
            case 0x08: raw(#"\b"#)
            case 0x0C: raw(#"\f"#)
            case 0x0A: raw(#"\n"#)
            case 0x0D: raw(#"\r"#)
            case 0x09: raw(#"\t"#)
            case 0..<0x20:
                raw(#"\u00"#)
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0x0F)])
            default: bytes.append(byte)
            }
        }
    }

    /// A finite number; returns false (writing nothing) for NaN and infinities, which JSON cannot hold.
    mutating func number(_ value: Double) -> Bool {
        guard value.isFinite else { return false }
        if value == value.rounded(.towardZero) && abs(value) < 1e15 {
            bytes.append(contentsOf: String(Int64(value)).utf8)
        } else {
            bytes.append(contentsOf: value.description.utf8)
        }
        return true
    }

    /// Returns false if `value` holds a number JSON cannot hold.
    mutating func value(_ value: JSONObject) -> Bool {
        switch value {
        case .null: raw("null")
        case .bool(let flag): flag ? raw("true") : raw("false")
        case .number(let number): return self.number(number)
        case .string(let text): string(text)
        case .array(let items):
            bytes.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                guard self.value(item) else { return false }
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members): return object(members)
        }
        return true
    }

    mutating func object(_ members: [String: JSONObject]) -> Bool {
        bytes.append(UInt8(ascii: "{"))
        for (index, key) in members.keys.sorted().enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            string(key)
            bytes.append(UInt8(ascii: ":"))
            guard value(members[key]!) else { return false }
        }
        bytes.append(UInt8(ascii: "}"))
        return true
    }
}
