/// A posted `application/x-www-form-urlencoded` form, read strictly: valid percent-escapes and
/// UTF-8 only, a bounded number of fields, the first of repeated names.
struct FormData: Sendable {
    static let maxFields = 32

    private var fields: [String: String] = [:]

    init(_ body: [UInt8]) throws(ConsoleError) {
        guard !body.isEmpty else { return }
        let pairs = body.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true)
        guard pairs.count <= Self.maxFields else { throw .badForm("more than \(Self.maxFields) fields") }
        for pair in pairs {
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            let name = try Self.decode(parts[0])
            let value = parts.count > 1 ? try Self.decode(parts[1]) : ""
            if fields[name] == nil { fields[name] = value }
        }
    }

    subscript(name: String) -> String? { fields[name] }

    /// A field that must be there, not empty, without control characters and at most `maxLength` bytes.
    func required(_ name: String, label: String, maxLength: Int = 256) throws(ConsoleError) -> String {
        guard let value = optional(name), !value.isEmpty else { throw .badForm("\(label) is missing") }
        guard value.utf8.count <= maxLength else { throw .badForm("\(label) is longer than \(maxLength) bytes") }
        guard !value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw .badForm("\(label) contains control characters")
        }
        return value
    }

    /// The field trimmed of spaces, nil when absent or empty.
    func optional(_ name: String) -> String? {
        guard let raw = fields[name] else { return nil }
        let value = raw.trimmingSpaces
        return value.isEmpty ? nil : value
    }

    private static func decode(_ bytes: ArraySlice<UInt8>) throws(ConsoleError) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let byte = bytes[i]
            if byte == UInt8(ascii: "+") {
                out.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%") {
                guard i + 2 < bytes.endIndex, let high = hex(bytes[i + 1]), let low = hex(bytes[i + 2]) else {
                    throw .badForm("a field has a broken %-escape")
                }
                out.append(high << 4 | low)
                i += 2
            } else {
                out.append(byte)
            }
            i += 1
        }
        guard let text = String(validating: out, as: UTF8.self) else { throw .badForm("a field is not valid UTF-8") }
        return text
    }

    private static func hex(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension String {
    var trimmingSpaces: String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}
