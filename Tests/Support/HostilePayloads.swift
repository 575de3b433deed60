import Foundation
import GuardianShared

// Generators of hostile input for the fuzz tests (Tests/HostileInputTests): every payload they
// return breaks a rule of the contract for its topic, so a service must report each one.

/// SplitMix64: small, fast and deterministic, so a failing run replays from its seed.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    public mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
    public mutating func double(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &self) }
    public mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &self)] }
    public mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }
    public mutating func bytes(_ count: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        out.withUnsafeMutableBytes { buffer in
            var i = 0
            while i < count {
                var word = next()
                for _ in 0..<min(8, count - i) {
                    buffer[i] = UInt8(truncatingIfNeeded: word)
                    word >>= 8
                    i += 1
                }
            }
        }
        return out
    }
}

/// A JSON value written exactly as a test wants it, including text no encoder would write (`raw`).
public indirect enum HJSON: Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    /// Written verbatim: `NaN`, `1e400`, a lone-surrogate escape, 600 nested brackets, …
    case raw(String)
    case array([HJSON])
    case object([(String, HJSON)])

    public var text: String {
        var out = ""
        write(to: &out)
        return out
    }

    public var data: Data { Data(text.utf8) }

    public func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n):
            precondition(n.isFinite, "use .raw for non-finite numbers")
            out += n.rounded() == n && abs(n) < 1e15 ? String(Int64(n)) : "\(n)"
        case .string(let s): HJSON.writeString(s, to: &out)
        case .raw(let r): out += r
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { out += "," }
                HJSON.writeString(key, to: &out)
                out += ":"
                value.write(to: &out)
            }
            out += "}"
        }
    }

    static func writeString(_ s: String, to out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }

    public subscript(key: String) -> HJSON? {
        get {
            guard case .object(let members) = self else { return nil }
            return members.first { $0.0 == key }?.1
        }
        set {
            guard case .object(var members) = self else { return }
            if let index = members.firstIndex(where: { $0.0 == key }) {
                if let newValue { members[index].1 = newValue } else { members.remove(at: index) }
            } else if let newValue {
                members.append((key, newValue))
            }
            self = .object(members)
        }
    }
}

/// One field of a payload: what the contract (or the service's decoder) requires of it.
public struct HostileField: Sendable {
    public enum Kind: Sendable {
        /// A number in `min...max` (or `min..<max`).
        case number(min: Double, max: Double, maxExclusive: Bool = false)
        /// Any finite number.
        case anyNumber
        /// A whole number in 0...1e12.
        case count
        /// Contract text: 1...max bytes, no control characters.
        case text(max: Int)
        /// Any string (the service does not check its content).
        case string
        /// `[A-Za-z0-9_-]{1,64}`.
        case id
        /// A device's event id: `[A-Za-z0-9_.:-]{1,128}`.
        case eventId
        case choice([String])
        /// RFC 3339 with offset, or epoch seconds; 2000-2200.
        case timestamp
        case bool
        /// An IANA time zone name.
        case timeZone
        case strings
        case ids
        case object([HostileField])
        case objects([HostileField])
        /// `HH:MM`.
        case clock
        /// Any JSON at all (never mutated).
        case json
    }

    public var name: String
    public var kind: Kind
    public var required: Bool
    /// Builds a valid value.
    public var valid: @Sendable (inout SeededRandom) -> HJSON
    /// More values that break a rule of this field (beyond what its kind implies).
    public var extraBad: [HJSON]
    /// Whether valid instances may carry it (false for a field whose presence makes another optional).
    public var inTemplate: Bool

    public init(
        _ name: String, _ kind: Kind, required: Bool = true, inTemplate: Bool = true, extraBad: [HJSON] = [],
        valid: @escaping @Sendable (inout SeededRandom) -> HJSON
    ) {
        self.name = name
        self.kind = kind
        self.required = required
        self.valid = valid
        self.extraBad = extraBad
        self.inTemplate = inTemplate
    }

    public static func constant(_ name: String, _ kind: Kind, _ value: HJSON, required: Bool = true, extraBad: [HJSON] = []) -> HostileField {
        HostileField(name, kind, required: required, extraBad: extraBad) { _ in value }
    }
}

/// The fields of one kind of payload, and a valid instance of it.
public struct HostileSchema: Sendable {
    public var fields: [HostileField]

    public init(_ fields: [HostileField]) { self.fields = fields }

    /// Every required field and, by chance, some optional ones.
    public func valid(_ rng: inout SeededRandom) -> HJSON {
        var members: [(String, HJSON)] = []
        for field in fields where field.required || (field.inTemplate && rng.chance(0.5)) {
            members.append((field.name, field.valid(&rng)))
        }
        return .object(members)
    }
}

/// Values that break the contract's rules, by kind.
public enum HostileValues {
    /// Ids a topic level or payload may carry that break `[A-Za-z0-9_-]{1,64}`: topic characters,
    /// look-alikes, invisible and direction-changing characters, lengths.
    public static let badIds: [String] = {
        let list = [
            "a/b", "a+b", "a#b", "+", "#", "/", "phone/../admin", "ｆｕｌｌ", "a\u{202E}b", "phone\u{200B}1", "\u{FEFF}phone", "рhone",
            "📱", "e\u{301}", String(repeating: "a", count: 65), "", " ", "a b", "a.b", "a:b", "$SYS", "a\nb", "a\u{0}b", "%2F", "a\\b",
            "a\"b", "a*b", "ﬁle", "Ⅸ", "١٢٣", "a\u{7F}b",
        ]
        return list.filter { !Identifier.isValid($0) }
    }()

    /// Bad ids that can stand as one topic level: the broker refuses `+` and `#` on publish, `/` makes
    /// another level, and control characters are not allowed in topics.
    public static let badTopicIds: [String] = badIds.filter { id in
        !id.contains("+") && !id.contains("#") && !id.contains("/") && !id.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    }

    public static let badEventIds: [String] = (badIds + [String(repeating: "x", count: 129)]).filter { !Identifier.isValidEventId($0) }

    public static let badTimes: [HJSON] = [
        .string("yesterday"), .string("2026-13-01T00:00:00Z"), .string("2026-02-30T00:00:00Z"), .string("2026-11-18T25:00:00Z"),
        .string("2026-11-18T12:00:00"), .string("1999-12-31T23:59:59Z"), .string("2201-01-01T00:00:00Z"), .string(""),
        .string("２０２６-11-18T12:00:00Z"), .string("2026-11-18T12:00:00+24:00"), .string("2026-11-18T12:00:00.Z"),
        .number(1e13), .number(-1), .number(0), .number(946_684_799), .raw("1e400"), .raw("-1e400"),
    ]

    public static let badZones: [String] = ["Mars/Olympus_Mons", "Europe/Pariss", "UTC+25", "ｕｔｃ", "Europe/Paris ", "Etc/GMT+99", "Nowhere"]
        .filter { TimeZone(identifier: $0) == nil }

    public static let badClocks: [String] = ["24:00", "7:00", "07:60", "0700", "ab:cd", "07:00:00", "", "７:００", " 7:00"]

    /// Literals that no JSON parser may accept, for any value.
    public static let nonJSONLiterals = ["NaN", "Infinity", "-Infinity", "nan", "undefined", "0x10", "+1", ".5", "01", "1.", "1e"]

    /// Numbers too large for a Double: only invalid where the field is actually read as a number.
    public static let unrepresentable = ["1e400", "-1e400", String(repeating: "9", count: 400)]

    /// `depth` nested arrays, closed.
    public static func nested(_ depth: Int) -> HJSON { .raw(String(repeating: "[", count: depth) + String(repeating: "]", count: depth)) }
}

/// How a payload was made invalid (for the test's report).
public enum HostileMutation: String, CaseIterable, Sendable {
    case missing, null, wrongType, outOfRange, nonFinite, badEnum, badId, badText, badTime, badZone, badClock, extra
    case deepNest, truncated, crashNesting, topLevel, randomBytes, emptyPayload, mismatch, topicId, oversized
}

/// Breaks one field of a valid object, or the whole payload, so that the result is invalid for its schema.
public enum HostileMutator {
    /// A value that breaks `field`'s rule, or nil if `mutation` does not apply to it.
    public static func badValue(for field: HostileField, _ mutation: HostileMutation, _ rng: inout SeededRandom) -> HJSON? {
        switch mutation {
        case .missing, .null:
            return nil  // handled by the caller (they remove or null the field)
        case .extra:
            return field.extraBad.isEmpty ? nil : rng.pick(field.extraBad)
        case .wrongType:
            return wrongType(field.kind, &rng)
        case .outOfRange:
            switch field.kind {
            case .number(let min, let max, let exclusive):
                var candidates: [Double] = [1e300, -1e300, max + Swift.max(1, abs(max) * 0.5), min - Swift.max(1, abs(min) * 0.5)]
                if exclusive { candidates.append(max) }
                if max - min <= 2 { candidates += [max + 0.001, min - 0.001] }
                return .number(rng.pick(candidates))
            case .count:
                return .number(rng.pick([-1, 1.5, 1e13, -1e300, 1e300]))
            default:
                return nil
            }
        case .nonFinite:
            switch field.kind {
            case .number, .anyNumber, .count:
                return .raw(rng.pick(HostileValues.nonJSONLiterals + HostileValues.unrepresentable))
            case .json:
                return nil
            default:
                return .raw(rng.pick(HostileValues.nonJSONLiterals))
            }
        case .badEnum:
            guard case .choice(let allowed) = field.kind else { return nil }
            let base = rng.pick(allowed)
            let candidates = [base.uppercased(), base + " ", " " + base, "x" + base, String(base.dropLast()), "", "ｗａｌｋｉｎｇ", base + "\u{200B}", "null"]
                .filter { !allowed.contains($0) }
            return .string(rng.pick(candidates))
        case .badId:
            switch field.kind {
            case .id: return .string(rng.pick(HostileValues.badIds))
            case .eventId: return .string(rng.pick(HostileValues.badEventIds))
            case .ids: return .array([.string("ok-id"), .string(rng.pick(HostileValues.badIds))])
            default: return nil
            }
        case .badText:
            switch field.kind {
            case .text(let max):
                return .string(
                    rng.pick([
                        "", "a\u{1}b", "bell\u{7}", "tab\there", "line\nbreak", "del\u{7F}", "\u{0}",
                        String(repeating: "é", count: max / 2 + 1), String(repeating: "x", count: max + 1),
                    ]))
            case .eventId:
                return .string(rng.pick(["", String(repeating: "x", count: 129), "a\u{1}b"]))
            default:
                return nil
            }
        case .badTime:
            guard case .timestamp = field.kind else { return nil }
            return rng.pick(HostileValues.badTimes)
        case .badZone:
            guard case .timeZone = field.kind else { return nil }
            return .string(rng.pick(HostileValues.badZones))
        case .badClock:
            guard case .clock = field.kind else { return nil }
            return .string(rng.pick(HostileValues.badClocks))
        case .deepNest:
            if case .json = field.kind { return nil }
            return HostileValues.nested(rng.int(513...3000))
        default:
            return nil
        }
    }

    /// A value of a JSON type the field's decoder refuses (never `null`, which an optional field accepts).
    static func wrongType(_ kind: HostileField.Kind, _ rng: inout SeededRandom) -> HJSON? {
        switch kind {
        case .number, .anyNumber, .count:
            return rng.pick([.string("12"), .bool(true), .object([]), .array([.number(1)]), .string("NaN")])
        case .text, .string, .id, .eventId, .choice, .timeZone, .clock:
            return rng.pick([.number(42), .bool(false), .object([("a", .string("b"))]), .array([.string("x")])])
        case .timestamp:
            return rng.pick([.bool(true), .object([]), .array([.number(1_795_000_000)])])
        case .bool:
            return rng.pick([.string("true"), .object([]), .array([.bool(true)])])
        case .strings, .ids:
            return rng.pick([.string("a"), .number(1), .object([]), .array([.number(1)])])
        case .object:
            return rng.pick([.string("{}"), .number(1), .bool(true), .array([])])
        case .objects:
            return rng.pick([.string("[]"), .number(1), .object([]), .array([.number(1)])])
        case .json:
            return nil
        }
    }

    /// Field mutations by weight: the rules a payload's fields most often break.
    static let fieldMutations: [(HostileMutation, Int)] = [
        (.missing, 10), (.null, 5), (.wrongType, 12), (.outOfRange, 12), (.nonFinite, 8), (.badEnum, 8), (.badId, 8), (.badText, 8),
        (.badTime, 8), (.badZone, 3), (.badClock, 3), (.extra, 5), (.deepNest, 3),
    ]

    /// `valid` with one field (possibly nested) broken by some mutation; nil when none applies.
    public static func mutateField(_ valid: HJSON, schema: HostileSchema, _ rng: inout SeededRandom) -> (HJSON, HostileMutation)? {
        let total = fieldMutations.map(\.1).reduce(0, +)
        for _ in 0..<20 {
            var roll = rng.int(0...(total - 1))
            var mutation = HostileMutation.wrongType
            for (candidate, weight) in fieldMutations {
                if roll < weight {
                    mutation = candidate
                    break
                }
                roll -= weight
            }
            for field in schema.fields.shuffled(using: &rng) {
                if let result = mutate(valid, field: field, mutation, &rng) { return result }
            }
        }
        return nil
    }

    /// `object` with `field` broken by `mutation` (or one of its nested fields), or nil if it does not apply.
    static func mutate(_ valid: HJSON, field: HostileField, _ mutation: HostileMutation, _ rng: inout SeededRandom) -> (HJSON, HostileMutation)? {
        var object = valid
        switch mutation {
        case .missing:
            guard field.required else { break }
            object[field.name] = nil
            return (object, mutation)
        case .null:
            guard field.required, !isJSON(field.kind) else { break }
            object[field.name] = .null
            return (object, mutation)
        default:
            if let bad = badValue(for: field, mutation, &rng), rng.chance(0.7) || !isNested(field.kind) {
                object[field.name] = bad
                return (object, mutation)
            }
        }
        // Nested objects: break one of their fields instead.
        guard let inner = object[field.name] else { return nil }
        switch field.kind {
        case .object(let fields):
            for nested in fields.shuffled(using: &rng) {
                if let (broken, how) = mutate(inner, field: nested, mutation, &rng) {
                    object[field.name] = broken
                    return (object, how)
                }
            }
        case .objects(let fields):
            guard case .array(var items) = inner, !items.isEmpty else { return nil }
            for nested in fields.shuffled(using: &rng) {
                if let (broken, how) = mutate(items[0], field: nested, mutation, &rng) {
                    items[0] = broken
                    object[field.name] = .array(items)
                    return (object, how)
                }
            }
        default:
            break
        }
        return nil
    }

    static func isNested(_ kind: HostileField.Kind) -> Bool {
        switch kind {
        case .object, .objects: return true
        default: return false
        }
    }

    static func isJSON(_ kind: HostileField.Kind) -> Bool {
        if case .json = kind { return true }
        return false
    }

    /// Bytes that cannot start a JSON text (in UTF-8, UTF-16 or UTF-32), then noise.
    public static func randomBytes(_ rng: inout SeededRandom, maxLength: Int = 300) -> Data {
        let firsts: [UInt8] = Array(0x80...0xBF) + Array("xyzQ}],:#'<\\*=".utf8)
        return Data([rng.pick(firsts)] + rng.bytes(rng.int(0...maxLength)))
    }

    /// A proper prefix of `text` (never empty): a JSON object or array missing its end.
    public static func truncated(_ text: String, _ rng: inout SeededRandom) -> Data {
        let bytes = Array(text.utf8)
        return Data(bytes.prefix(rng.int(1...(bytes.count - 1))))
    }

    /// `valid` with one field's value replaced by enough `[` to open the 513th nesting level as the
    /// payload's very last byte: this made Foundation's JSONDecoder trap instead of throwing.
    public static func crashNesting(_ valid: HJSON, field: String) -> Data {
        var object = valid
        object[field] = .raw("\u{1}")
        let text = object.text
        let marker = text.range(of: "\u{1}")!
        // The marker sits in the top-level object, at depth 1.
        return Data((text[..<marker.lowerBound] + String(repeating: "[", count: 512)).utf8)
    }

    /// About `megabytes` MB that are not valid JSON: noise, a huge string in a broken object, or deep nesting.
    public static func oversized(_ variant: Int, megabytes: Int = 10) -> Data {
        let size = megabytes * 1_000_000
        switch variant % 3 {
        case 0:
            var rng = SeededRandom(seed: 10_000_019)
            return Data([0xBF] + rng.bytes(size - 1))
        case 1:
            return Data(("{\"pad\":\"" + String(repeating: "x", count: size) + "\",\"lat\":NaN}").utf8)
        default:
            return Data(("{\"a\":" + String(repeating: "[", count: size)).utf8)
        }
    }
}

/// What a service reports for a rejected payload, as the key a test counts: escaped topic and excerpt.
public enum HostileReportKey {
    public static func make(topic: String, payload: Data) -> String {
        ErrorReport.escape(Data(topic.utf8.prefix(256))) + "\n" + ErrorReport.escape(payload.prefix(256))
    }

    public static func make(report: ErrorReport) -> String { report.topic + "\n" + report.excerpt }
}
