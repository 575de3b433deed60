import Foundation

/// A validated XGBoost `binary:logistic` gbtree model (the JSON of `Booster.save_model`),
/// evaluated natively.
///
/// Evaluation reproduces xgboost bit for bit: each feature is rounded to `Float`, `x < split`
/// goes left, NaN (missing) follows `default_left`, and the margin is summed in `Float` in tree
/// order starting from `logit(base_score)`. See `scripts/training/README.md`.
public struct XGBoostModel: Sendable, Decodable {
    /// `learner.learner_model_param.num_feature`: the length every input row must have.
    public let featureCount: Int
    /// `learner.feature_names`, or nil when the model names none.
    public let featureNames: [String]?
    public let treeCount: Int
    /// `base_score`, in probability space, as the `Float` xgboost uses.
    public let baseScore: Double

    let baseMargin: Float
    /// Every tree's nodes, breadth-first from its root (children after their parent).
    let nodes: [Node]
    /// Parallel to `nodes`: the value of a leaf, 0 at an inner node.
    let leafValues: [Float]
    let roots: [Int32]
    /// Per group of `lanes` consecutive trees, the depth of the deepest: the steps after which
    /// all of them are on a leaf.
    let groupDepths: [Int32]
    /// Trees walked in lockstep, for independent load chains.
    static let lanes = 8

    /// 12 bytes. An inner node's children are adjacent: `left` and `left + 1`. A leaf is its
    /// own left child with threshold +infinity and missing going left, so every input stays on
    /// it (inputs are capped at `Float.greatestFiniteMagnitude`): trees of a group can take the
    /// same number of steps.
    struct Node: Sendable {
        var threshold: Float
        /// The feature index; the top bit is set when a missing value goes left.
        var split: UInt32
        var left: Int32

        static let missingLeftBit: UInt32 = 1 << 31
    }

    /// Parses and validates a model; see `XGBoostModelError` for what is refused.
    public init(json: Data) throws(XGBoostModelError) {
        try self.init(ParsedModel(root: JSONNode(value: JSONValue.decode(json), path: "")))
    }

    /// Decodes and validates the model as a member of a larger message (e.g. the `model` of a
    /// hot-swap message); throws `XGBoostModelError` when the JSON is not an acceptable model.
    public init(from decoder: any Decoder) throws {
        try self.init(ParsedModel(root: JSONNode(value: JSONValue(from: decoder), path: "")))
    }

    private init(_ parsed: ParsedModel) {
        featureCount = parsed.featureCount
        featureNames = parsed.featureNames
        treeCount = parsed.roots.count
        baseScore = Double(parsed.baseScore)
        baseMargin = parsed.baseMargin
        nodes = parsed.nodes
        leafValues = parsed.leafValues
        roots = parsed.roots
        groupDepths = stride(from: 0, to: parsed.depths.count - Self.lanes + 1, by: Self.lanes).map {
            parsed.depths[$0..<$0 + Self.lanes].max()!
        }
    }

    /// Throws unless the model takes exactly `names`, in order (a model without
    /// `feature_names` only needs the same count).
    public func requireFeatures(_ names: [String]) throws(XGBoostModelError) {
        guard featureCount == names.count else {
            throw .featureCountMismatch(expected: names.count, model: featureCount)
        }
        if let featureNames, featureNames != names {
            throw .featureNamesMismatch(expected: names, model: featureNames)
        }
    }

    /// The raw score, `logit(base_score)` included (xgboost's `output_margin=True`).
    /// NaN marks a missing feature.
    public func margin(_ features: [Double]) throws(XGBoostModelError) -> Double {
        try check(features, row: nil)
        return Double(features.withUnsafeBufferPointer { rawMargin($0) })
    }

    /// The predicted probability (xgboost's `predict`). NaN marks a missing feature.
    public func probability(_ features: [Double]) throws(XGBoostModelError) -> Double {
        try check(features, row: nil)
        return Double(Self.sigmoid(features.withUnsafeBufferPointer { rawMargin($0) }))
    }

    /// `probability` of every row; throws before evaluating anything if a row has the wrong length.
    public func probabilities(batch: [[Double]]) throws(XGBoostModelError) -> [Double] {
        for (index, row) in batch.enumerated() {
            try check(row, row: index)
        }
        return batch.map { row in
            Double(Self.sigmoid(row.withUnsafeBufferPointer { rawMargin($0) }))
        }
    }

    private func check(_ features: [Double], row: Int?) throws(XGBoostModelError) {
        guard features.count == featureCount else {
            throw .wrongInputLength(expected: featureCount, got: features.count, row: row)
        }
    }

    /// Requires `x.count == featureCount`. Node indices are unchecked: parsing guarantees every
    /// split feature is in `0..<featureCount`, every child in range, and each tree acyclic.
    @inline(__always)
    func rawMargin(_ x: UnsafeBufferPointer<Double>) -> Float {
        withUnsafeTemporaryAllocation(of: Float.self, capacity: featureCount) { buffer in
            var anyMissing = false
            for index in 0..<featureCount {
                // +infinity compares like the largest Float with any finite threshold.
                buffer[index] = Swift.min(Float(x[index]), .greatestFiniteMagnitude)
                anyMissing = anyMissing || buffer[index].isNaN
            }
            let x32 = UnsafePointer(buffer.baseAddress!)
            return anyMissing ? walk(x32, missing: true) : walk(x32, missing: false)
        }
    }

    /// Sums the leaves in tree order, as xgboost does. Inlined once per value of `missing`, so
    /// rows without missing values skip the `default_left` test.
    @inline(__always)
    private func walk(_ x: UnsafePointer<Float>, missing: Bool) -> Float {
        nodes.withUnsafeBufferPointer { nodes in
            leafValues.withUnsafeBufferPointer { leaves in
                roots.withUnsafeBufferPointer { roots in
                    let nodes = nodes.baseAddress!
                    let leaves = leaves.baseAddress!
                    var margin = baseMargin
                    var tree = 0
                    for depth in groupDepths {
                        var a = Int(truncatingIfNeeded: roots[tree])
                        var b = Int(truncatingIfNeeded: roots[tree + 1])
                        var c = Int(truncatingIfNeeded: roots[tree + 2])
                        var d = Int(truncatingIfNeeded: roots[tree + 3])
                        var e = Int(truncatingIfNeeded: roots[tree + 4])
                        var f = Int(truncatingIfNeeded: roots[tree + 5])
                        var g = Int(truncatingIfNeeded: roots[tree + 6])
                        var h = Int(truncatingIfNeeded: roots[tree + 7])
                        for _ in 0..<depth {
                            a = Self.step(nodes[a], x, missing: missing)
                            b = Self.step(nodes[b], x, missing: missing)
                            c = Self.step(nodes[c], x, missing: missing)
                            d = Self.step(nodes[d], x, missing: missing)
                            e = Self.step(nodes[e], x, missing: missing)
                            f = Self.step(nodes[f], x, missing: missing)
                            g = Self.step(nodes[g], x, missing: missing)
                            h = Self.step(nodes[h], x, missing: missing)
                        }
                        margin += leaves[a]
                        margin += leaves[b]
                        margin += leaves[c]
                        margin += leaves[d]
                        margin += leaves[e]
                        margin += leaves[f]
                        margin += leaves[g]
                        margin += leaves[h]
                        tree += Self.lanes
                    }
                    while tree < roots.count {
                        var node = Int(truncatingIfNeeded: roots[tree])
                        while nodes[node].left != node {
                            node = Self.step(nodes[node], x, missing: missing)
                        }
                        margin += leaves[node]
                        tree += 1
                    }
                    return margin
                }
            }
        }
    }

    /// Branch-free: a mispredicted branch per node would dominate the cost.
    @inline(__always)
    static func step(_ node: Node, _ x: UnsafePointer<Float>, missing: Bool) -> Int {
        let v = x[Int(truncatingIfNeeded: node.split & ~Node.missingLeftBit)]
        var left = UInt32(unsafeBitCast(v < node.threshold, to: UInt8.self))
        if missing {
            left |= UInt32(unsafeBitCast(v.isNaN, to: UInt8.self)) & (node.split >> 31)
        }
        return Int(truncatingIfNeeded: node.left) &+ Int(truncatingIfNeeded: left ^ 1)
    }

    /// `1 / (1 + exp(-margin))` in `Float`, `exp` rounded from `Double` as xgboost's result is.
    @inline(__always)
    static func sigmoid(_ margin: Float) -> Float {
        1 / (1 + Float(Foundation.exp(Double(-margin))))
    }
}
