/// Decoding helpers that enforce the contract's ranges and enums with readable reasons.
extension KeyedDecodingContainer {
    public func number(_ key: Key, in range: ClosedRange<Double>? = nil, below upper: Double? = nil) throws -> Double {
        let value = try decode(Double.self, forKey: key)
        return try check(value, key, range, upper)
    }

    public func optionalNumber(_ key: Key, in range: ClosedRange<Double>? = nil, below upper: Double? = nil) throws -> Double? {
        guard let value = try decodeIfPresent(Double.self, forKey: key) else { return nil }
        return try check(value, key, range, upper)
    }

    private func check(_ value: Double, _ key: Key, _ range: ClosedRange<Double>?, _ upper: Double?) throws -> Double {
        guard value.isFinite else { throw ContractViolation(path: codingPath + [key], "must be a finite number") }
        if let range, !range.contains(value) {
            throw ContractViolation(path: codingPath + [key], "must be in [\(format(range.lowerBound)), \(format(range.upperBound))], got \(format(value))")
        }
        if let upper, !(value < upper) {
            throw ContractViolation(path: codingPath + [key], "must be below \(format(upper)), got \(format(value))")
        }
        return value
    }

    public func optionalCount(_ key: Key) throws -> Int? {
        guard let value = try optionalNumber(key, in: 0...1e12) else { return nil }
        guard value.rounded() == value else { throw ContractViolation(path: codingPath + [key], "must be a whole number, got \(value)") }
        return Int(value)
    }

    public func choice<E: RawRepresentable & CaseIterable>(_ key: Key, _: E.Type) throws -> E where E.RawValue == String {
        let raw = try decode(String.self, forKey: key)
        guard let value = E(rawValue: raw) else {
            throw ContractViolation(
                path: codingPath + [key],
                "must be one of \(E.allCases.map(\.rawValue).joined(separator: ", ")), got \(ContractViolation.quote(raw))")
        }
        return value
    }

    public func optionalChoice<E: RawRepresentable & CaseIterable>(_ key: Key, _ type: E.Type) throws -> E? where E.RawValue == String {
        guard try decodeIfPresent(String.self, forKey: key) != nil else { return nil }
        return try choice(key, type)
    }

    public func text(_ key: Key, maxLength: Int = 256) throws -> String {
        let value = try decode(String.self, forKey: key)
        return try checkText(value, key, maxLength)
    }

    public func optionalText(_ key: Key, maxLength: Int = 256) throws -> String? {
        guard let value = try decodeIfPresent(String.self, forKey: key) else { return nil }
        return try checkText(value, key, maxLength)
    }

    private func checkText(_ value: String, _ key: Key, _ maxLength: Int) throws -> String {
        if let problem = ContractText.problem(value, maxLength: maxLength) { throw ContractViolation(path: codingPath + [key], problem) }
        return value
    }
}

private func format(_ value: Double) -> String {
    value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
}

/// Coding keys from any string, for types that read fields by name.
public struct AnyKey: CodingKey, Hashable {
    public var stringValue: String
    public var intValue: Int?
    public init(_ string: String) { stringValue = string }
    public init?(stringValue: String) { self.stringValue = stringValue }
    public init?(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}
