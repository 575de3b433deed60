import Foundation

/// Reference predictions shipped with a model (`vectors.json`, or the `vectors` of a hot-swap
/// message): `[{features: [Double?], probability, margin?}]`, `null` = missing.
public struct ModelVectors: Sendable, Decodable {
    public struct Row: Sendable {
        /// NaN where the file has `null`.
        public var features: [Double]
        public var probability: Double
        public var margin: Double?

        public init(features: [Double], probability: Double, margin: Double? = nil) {
            self.features = features
            self.probability = probability
            self.margin = margin
        }
    }

    /// The largest |probability difference| a model may show on its vectors.
    public static let tolerance = 1e-6

    public let rows: [Row]

    public init(rows: [Row]) {
        self.rows = rows
    }

    public init(json: Data) throws(ModelVectorsError) {
        let value: JSONValue
        do {
            value = try JSONDecoder().decodePayload(JSONValue.self, from: json)
        } catch {
            throw .invalidJSON(JSONValue.describe(error, data: json))
        }
        try self.init(value)
    }

    /// Decodes the rows as a member of a larger message (e.g. the `vectors` of a hot-swap
    /// message); throws `ModelVectorsError` when they are malformed.
    public init(from decoder: any Decoder) throws {
        try self.init(JSONValue(from: decoder))
    }

    private init(_ value: JSONValue) throws(ModelVectorsError) {
        guard case .array(let list) = value else { throw .invalidJSON("expected a list of rows") }
        var rows = [Row]()
        rows.reserveCapacity(list.count)
        for (index, element) in list.enumerated() {
            guard case .object(let object) = element else {
                throw .invalidRow(index: index, reason: "not an object")
            }
            guard case .array(let features)? = object["features"] else {
                throw .invalidRow(index: index, reason: "features is missing or not a list")
            }
            var values = [Double]()
            values.reserveCapacity(features.count)
            for (position, feature) in features.enumerated() {
                switch feature {
                case .null: values.append(.nan)
                case .number(let number): values.append(number)
                default: throw .invalidRow(index: index, reason: "features[\(position)] is neither a number nor null")
                }
            }
            guard case .number(let probability)? = object["probability"], probability >= 0, probability <= 1 else {
                throw .invalidRow(index: index, reason: "probability is missing or not a number in [0, 1]")
            }
            var margin: Double?
            switch object["margin"] {
            case nil, .null?: break
            case .number(let number)?: margin = number
            default: throw .invalidRow(index: index, reason: "margin is not a number")
            }
            rows.append(Row(features: values, probability: probability, margin: margin))
        }
        self.rows = rows
    }

    /// The largest |model probability - expected probability| over the rows, and the index of
    /// the row where it occurs. Throws if there are no rows or a row's length is not the model's.
    public func maxAbsoluteDifference(model: XGBoostModel) throws(ModelVectorsError) -> (maxDiff: Double, worstIndex: Int) {
        guard !rows.isEmpty else { throw .empty }
        var worst = (maxDiff: 0.0, worstIndex: 0)
        for (index, row) in rows.enumerated() {
            let predicted: Double
            do {
                predicted = try model.probability(row.features)
            } catch {
                throw .featureCount(row: index, expected: model.featureCount, got: row.features.count)
            }
            let difference = abs(predicted - row.probability)
            if !(difference <= worst.maxDiff) {
                worst = (difference, index)
                if difference.isNaN { break }
            }
        }
        return worst
    }
}

/// Why a vectors file was refused or could not be checked against a model.
public enum ModelVectorsError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidJSON(String)
    case invalidRow(index: Int, reason: String)
    case empty
    case featureCount(row: Int, expected: Int, got: Int)

    public var description: String {
        switch self {
        case .invalidJSON(let reason): return "vectors are not a valid JSON list: \(reason)"
        case .invalidRow(let index, let reason): return "vectors[\(index)]: \(reason)"
        case .empty: return "vectors: no rows to check"
        case .featureCount(let row, let expected, let got):
            return "vectors[\(row)]: \(got) features, the model takes \(expected)"
        }
    }
}
