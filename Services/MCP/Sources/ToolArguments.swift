import Foundation
import MCP

/// A tool's arguments, read strictly: one of the wrong type is refused, naming the argument and the
/// type expected, never taken as absent. A null is absent.
struct ToolArguments: Sendable {
    let values: [String: Value]

    init(_ values: [String: Value]?) { self.values = values ?? [:] }

    /// A string argument, nil when absent; `expected` describes it in the error.
    func string(_ name: String, expected: String = "a string") throws(BridgeError) -> String? {
        switch values[name] {
        case nil, .null?: return nil
        case .string(let text)?: return text
        case let .data(mimeType, data)?:
            // The SDK reads a string that is a data URL as data: it is still the string sent.
            return data.dataURLEncoded(mimeType: mimeType)
        case let other?: throw .invalidArguments("\(name) must be \(expected), got \(Self.kind(of: other))")
        }
    }

    /// An object argument, nil when absent.
    func object(_ name: String, expected: String = "an object") throws(BridgeError) -> [String: Value]? {
        switch values[name] {
        case nil, .null?: return nil
        case .object(let fields)?: return fields
        case let other?: throw .invalidArguments("\(name) must be \(expected), got \(Self.kind(of: other))")
        }
    }

    /// The kind of a JSON value, as an error names it.
    static func kind(of value: Value) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .int, .double: "a number"
        case .string, .data: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// `text` as an error shows it: at most 64 characters, then "…".
    static func shown(_ text: String) -> String { text.count > 64 ? String(text.prefix(64)) + "…" : text }
}
