import Foundation

/// An arbitrary JSON value carried through unchanged (e.g. a command inside a reply).
public indirect enum JSONObject: Codable, Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONObject])
    case object([String: JSONObject])

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let n = try? c.decode(Double.self) {
            self = .number(n)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let a = try? c.decode([JSONObject].self) {
            self = .array(a)
        } else {
            self = .object(try c.decode([String: JSONObject].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let b): try c.encode(b)
        case .number(let n): try c.encode(n)
        case .string(let s): try c.encode(s)
        case .array(let a): try c.encode(a)
        case .object(let o): try c.encode(o)
        }
    }

    public subscript(key: String) -> JSONObject? {
        if case .object(let o) = self { return o[key] }
        return nil
    }

    public var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    public var number: Double? {
        if case .number(let n) = self { return n }
        return nil
    }
}

extension JSONObject {
    /// A stored payload read back as JSON (for exports); `.null` if it is not JSON.
    public init(payload: Data) {
        self = (try? JSONDecoder().decode(JSONObject.self, from: payload)) ?? .null
    }

    /// Any encodable value as JSON (for exports of the service's own types).
    public init(encoding value: some Encodable) {
        self.init(payload: GuardianJSON.encode(value))
    }
}
