import Foundation

/// The validated, flattened content of a model's JSON (see `scripts/training/README.md`,
/// "What a native evaluator reads").
struct ParsedModel {
    var featureCount = 0
    var featureNames: [String]?
    var baseScore: Float = 0
    var baseMargin: Float = 0
    var nodes: [XGBoostModel.Node] = []
    var leafValues: [Float] = []
    var roots: [Int32] = []
    /// Per tree, the number of steps from the root to its deepest leaf.
    var depths: [Int32] = []

    init(root: JSONNode) throws(XGBoostModelError) {
        let learner = try root.field("learner")
        let objective = try learner.field("objective").field("name").string()
        guard objective == "binary:logistic" else { throw .unsupportedObjective(objective) }
        let booster = try learner.field("gradient_booster")
        let boosterName = try booster.field("name").string()
        guard boosterName == "gbtree" else { throw .unsupportedBooster(boosterName) }

        let param = try learner.field("learner_model_param")
        let numFeature = try param.field("num_feature")
        featureCount = try numFeature.integer()
        guard featureCount >= 1, featureCount <= Int(Int32.max) else {
            throw .invalidValue(field: numFeature.path, reason: "\(featureCount) features")
        }
        if let numClass = try param.optionalField("num_class"), try numClass.integer() > 1 {
            throw .invalidValue(field: numClass.path, reason: "multi-class models are not supported")
        }
        if let numTarget = try param.optionalField("num_target"), try numTarget.integer() != 1 {
            throw .invalidValue(field: numTarget.path, reason: "only single-target models are supported")
        }
        (baseScore, baseMargin) = try Self.baseScore(param.field("base_score"))

        if let names = try learner.optionalField("feature_names") {
            let list = try names.strings()
            if !list.isEmpty {
                guard list.count == featureCount else {
                    throw .invalidValue(field: names.path, reason: "\(list.count) names for num_feature \(featureCount)")
                }
                featureNames = list
            }
        }

        let model = try booster.field("model")
        let declared = try model.field("gbtree_model_param").field("num_trees").integer()
        let treesNode = try model.field("trees")
        let trees = try treesNode.elements()
        guard declared == trees.count else { throw .treeCountMismatch(declared: declared, actual: trees.count) }
        guard !trees.isEmpty else { throw .invalidValue(field: treesNode.path, reason: "no trees") }
        if let info = try model.optionalField("tree_info") {
            let groups = try info.integers()
            guard groups.count == trees.count, groups.allSatisfy({ $0 == 0 }) else {
                throw .invalidValue(field: info.path, reason: "expected \(trees.count) zeros (one output group)")
            }
        }
        for (index, tree) in trees.enumerated() {
            try appendTree(tree, index: index)
        }
    }

    /// Appends one tree breadth-first from its root, the children of a node adjacent (see
    /// `XGBoostModel.Node`). Only nodes reachable from the root are kept; reaching one twice is
    /// refused, so every walk ends on a leaf.
    private mutating func appendTree(_ tree: JSONNode, index t: Int) throws(XGBoostModelError) {
        let left = try tree.field("left_children").integers()
        let right = try tree.field("right_children").integers()
        let splitIndices = try tree.field("split_indices").integers()
        let conditions = try tree.field("split_conditions").floats()
        let defaultLeft = try tree.field("default_left").integers()
        let n = left.count
        guard n >= 1 else { throw .inconsistentTree(tree: t, reason: "no nodes") }
        for (name, count) in [("right_children", right.count), ("split_indices", splitIndices.count),
                              ("split_conditions", conditions.count), ("default_left", defaultLeft.count)]
        where count != n {
            throw .inconsistentTree(tree: t, reason: "\(name) has \(count) entries, left_children \(n)")
        }
        if let splitType = try tree.optionalField("split_type") {
            let types = try splitType.integers()
            guard types.count == n else {
                throw .inconsistentTree(tree: t, reason: "split_type has \(types.count) entries, left_children \(n)")
            }
            if let node = types.firstIndex(where: { $0 != 0 }) { throw .categoricalSplit(tree: t, node: node) }
        }
        if let treeParam = try tree.optionalField("tree_param") {
            if let numNodes = try treeParam.optionalField("num_nodes"), try numNodes.integer() != n {
                throw .inconsistentTree(tree: t, reason: "tree_param.num_nodes is not \(n), the length of left_children")
            }
            if let leafSize = try treeParam.optionalField("size_leaf_vector"), try leafSize.integer() > 1 {
                throw .inconsistentTree(tree: t, reason: "vector leaves (size_leaf_vector > 1) are not supported")
            }
        }
        guard nodes.count + n < Int(Int32.max) else {
            throw .inconsistentTree(tree: t, reason: "too many nodes")
        }

        let base = nodes.count
        roots.append(Int32(base))
        var reached = [Bool](repeating: false, count: n)
        reached[0] = true
        var queue = [0]
        queue.reserveCapacity(n)
        var depth = [0]
        depth.reserveCapacity(n)
        var head = 0
        while head < queue.count {
            let node = queue[head]
            let slot = Int32(base + head)
            let level = depth[head]
            head += 1
            if left[node] == -1 {
                guard right[node] == -1 else {
                    throw .inconsistentTree(tree: t, reason: "node \(node) is a leaf (left_children -1) but right_children is \(right[node])")
                }
                nodes.append(.init(threshold: .infinity, split: XGBoostModel.Node.missingLeftBit, left: slot))
                leafValues.append(conditions[node])
                continue
            }
            for next in [left[node], right[node]] {
                guard next >= 1, next < n else { throw .childOutOfRange(tree: t, node: node, child: next, nodeCount: n) }
                guard !reached[next] else { throw .cycle(tree: t, node: next) }
                reached[next] = true
                queue.append(next)
                depth.append(level + 1)
            }
            let split = splitIndices[node]
            guard split >= 0, split < featureCount else {
                throw .featureIndexOutOfRange(tree: t, node: node, index: split, featureCount: featureCount)
            }
            guard defaultLeft[node] == 0 || defaultLeft[node] == 1 else {
                throw .inconsistentTree(tree: t, reason: "default_left of node \(node) is \(defaultLeft[node]), not 0 or 1")
            }
            let child = Int32(base + queue.count - 2)
            nodes.append(.init(
                threshold: conditions[node],
                split: UInt32(split) | (defaultLeft[node] == 1 ? XGBoostModel.Node.missingLeftBit : 0),
                left: child))
            leafValues.append(0)
        }
        depths.append(Int32(depth.last!))
    }

    /// `"[3.9675E-1]"` (xgboost >= 3.1) or `"4.3388933E-1"` (<= 3.0), in probability space.
    /// Returns it as a `Float` and its logit computed as xgboost does; never defaults.
    static func baseScore(_ node: JSONNode) throws(XGBoostModelError) -> (Float, Float) {
        let text: String
        switch node.value {
        case .string(let string):
            text = string
        case .number(let number):
            text = String(number)
        default:
            throw .wrongType(field: node.path, expected: "a string such as \"[5E-1]\"")
        }
        var body = text.trimmingCharacters(in: .whitespaces)
        if body.hasPrefix("[") {
            guard body.hasSuffix("]") else { throw .invalidBaseScore("\"\(text)\"") }
            let parts = body.dropFirst().dropLast().split(separator: ",")
            guard parts.count == 1 else { throw .invalidBaseScore("\"\(text)\"") }
            body = parts[0].trimmingCharacters(in: .whitespaces)
        }
        guard let parsed = Double(body) else { throw .invalidBaseScore("\"\(text)\"") }
        let score = Float(parsed)
        let margin = Float(-Foundation.log(Double(Float(Double(Float(1.0 / Double(score))) - 1.0))))
        guard score > 0, score < 1, margin.isFinite else { throw .invalidBaseScore("\"\(text)\"") }
        return (score, margin)
    }
}

/// A JSON value decoded with `JSONDecoder`, whose numbers are correctly rounded (those of
/// `JSONSerialization` on Linux are not always: long ones become `NSDecimalNumber`).
enum JSONValue: Decodable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Decodes `data`, describing a failure as well as Foundation can.
    static func decode(_ data: Data) throws(XGBoostModelError) -> JSONValue {
        do {
            return try JSONDecoder().decodePayload(JSONValue.self, from: data)
        } catch {
            throw .invalidJSON(describe(error, data: data))
        }
    }

    static func describe(_ error: any Error, data: Data) -> String {
        // JSONDecoder on Linux does not say where the text is broken; JSONSerialization does.
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
        } catch {
            let ns = error as NSError
            if let reason = ns.userInfo[NSDebugDescriptionErrorKey] as? String { return reason }
        }
        if case .dataCorrupted(let context) = error as? DecodingError { return context.debugDescription }
        return "\(error)"
    }
}

/// A JSON value and its path from the model's root, for error messages.
struct JSONNode {
    let value: JSONValue
    let path: String

    func field(_ key: String) throws(XGBoostModelError) -> JSONNode {
        guard let node = try optionalField(key) else { throw .missingField(member(key)) }
        return node
    }

    /// Nil when absent or `null`.
    func optionalField(_ key: String) throws(XGBoostModelError) -> JSONNode? {
        guard case .object(let object) = value else {
            throw .wrongType(field: path.isEmpty ? "the root" : path, expected: "an object")
        }
        guard let member = object[key] else { return nil }
        if case .null = member { return nil }
        return JSONNode(value: member, path: self.member(key))
    }

    func string() throws(XGBoostModelError) -> String {
        guard case .string(let string) = value else { throw .wrongType(field: path, expected: "a string") }
        return string
    }

    /// An integer, or a string holding one (`learner_model_param` and `*_param` members).
    func integer() throws(XGBoostModelError) -> Int {
        switch value {
        case .string(let string):
            if let int = Int(string) { return int }
        case .number(let number):
            if let int = Int(exactly: number) { return int }
        default:
            break
        }
        throw .wrongType(field: path, expected: "an integer")
    }

    func elements() throws(XGBoostModelError) -> [JSONNode] {
        try array().enumerated().map { JSONNode(value: $1, path: "\(path)[\($0)]") }
    }

    /// Integers; `default_left` may also be written as booleans.
    func integers() throws(XGBoostModelError) -> [Int] {
        let array = try array()
        var result = [Int]()
        result.reserveCapacity(array.count)
        for (index, element) in array.enumerated() {
            switch element {
            case .number(let number) where Int(exactly: number) != nil:
                result.append(Int(number))
            case .bool(let bool):
                result.append(bool ? 1 : 0)
            default:
                throw .wrongType(field: "\(path)[\(index)]", expected: "an integer")
            }
        }
        return result
    }

    /// Numbers rounded to `Float`, as xgboost stores them; each must be finite.
    func floats() throws(XGBoostModelError) -> [Float] {
        let array = try array()
        var result = [Float]()
        result.reserveCapacity(array.count)
        for (index, element) in array.enumerated() {
            guard case .number(let number) = element else {
                throw .wrongType(field: "\(path)[\(index)]", expected: "a number")
            }
            let float = Float(number)
            guard float.isFinite else {
                throw .invalidValue(field: "\(path)[\(index)]", reason: "\(number) is not a finite float32")
            }
            result.append(float)
        }
        return result
    }

    func strings() throws(XGBoostModelError) -> [String] {
        try array().enumerated().map { (index, element) throws(XGBoostModelError) -> String in
            guard case .string(let string) = element else {
                throw .wrongType(field: "\(path)[\(index)]", expected: "a string")
            }
            return string
        }
    }

    private func array() throws(XGBoostModelError) -> [JSONValue] {
        guard case .array(let array) = value else { throw .wrongType(field: path, expected: "an array") }
        return array
    }

    private func member(_ key: String) -> String {
        path.isEmpty ? key : "\(path).\(key)"
    }
}
