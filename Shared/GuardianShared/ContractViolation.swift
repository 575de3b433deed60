/// Why a payload breaks the contract: the field (a JSON path such as `items[3].lat`) and the rule.
public struct ContractViolation: Error, Equatable, CustomStringConvertible, Sendable {
    public var field: String?
    public var reason: String

    public init(field: String? = nil, _ reason: String) {
        self.field = field
        self.reason = reason
    }

    public init(path: [any CodingKey], _ reason: String) {
        self.init(field: path.isEmpty ? nil : ContractViolation.render(path), reason)
    }

    public var description: String { field.map { "\($0): \(reason)" } ?? reason }

    /// A violation whose field sits inside `parent` (e.g. a batch item).
    public func nested(in parent: String) -> ContractViolation {
        ContractViolation(field: field.map { "\(parent).\($0)" } ?? parent, reason)
    }

    static func render(_ path: [any CodingKey]) -> String {
        var out = ""
        for key in path {
            if let index = key.intValue {
                out += "[\(index)]"
            } else {
                if !out.isEmpty { out += "." }
                out += key.stringValue
            }
        }
        return out
    }

    /// A value shown in a reason, shortened and quoted.
    public static func quote(_ value: String) -> String {
        let short = value.count > 40 ? String(value.prefix(40)) + "…" : value
        return "\"\(short.unicodeScalars.map { $0.properties.isWhitespace && $0 != " " || $0.value < 0x20 ? "?" : String($0) }.joined())\""
    }

    /// Turns any decoding failure into a readable violation.
    public static func from(_ error: any Error) -> ContractViolation {
        if let violation = error as? ContractViolation { return violation }
        guard let decoding = error as? DecodingError else { return ContractViolation("\(error)") }
        switch decoding {
        case .typeMismatch(let type, let context):
            return ContractViolation(path: context.codingPath, "expected \(describe(type))")
        case .valueNotFound(let type, let context):
            return ContractViolation(path: context.codingPath, "expected \(describe(type)), got null")
        case .keyNotFound(let key, let context):
            return ContractViolation(path: context.codingPath + [key], "required field is missing")
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                return ContractViolation("not valid JSON: \(context.debugDescription)")
            }
            return ContractViolation(path: context.codingPath, context.debugDescription)
        @unknown default:
            return ContractViolation("\(decoding)")
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is Double.Type, is Float.Type: return "a number"
        case is Int.Type, is Int64.Type, is UInt32.Type: return "an integer"
        case is String.Type: return "a string"
        case is Bool.Type: return "true or false"
        default:
            let name = "\(type)"
            if name.hasPrefix("Array") { return "an array" }
            if name.hasPrefix("Dictionary") { return "an object" }
            return "an object (\(name))"
        }
    }
}
