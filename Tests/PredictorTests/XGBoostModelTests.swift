import Foundation
import Testing
@testable import GuardianPredictor

/// Tests/PredictorTests/XGBoostModelTests.swift → the repository root.
private let repoRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

private let contractFeatures = [
    "distanceToMerchant", "hourOfDay", "isWeekend", "budgetUtilization", "merchantRegretRate", "dwellTime",
]

private func modelFile(_ directory: String, _ name: String) throws -> Data {
    try Data(contentsOf: repoRoot.appendingPathComponent("Models/\(directory)/\(name)"))
}

/// The legacy-base-score model's JSON, changed at `path` (object keys, or array indices as numbers);
/// `nil` removes the member.
private func corrupted(_ path: [String], _ value: Any?) throws -> Data {
    func replace(_ node: Any, _ path: ArraySlice<String>) -> Any? {
        guard let key = path.first else { return value }
        if var array = node as? [Any], let index = Int(key) {
            array[index] = replace(array[index], path.dropFirst()) ?? NSNull()
            return array
        }
        var object = node as! [String: Any]
        object[key] = replace(object[key] as Any, path.dropFirst())
        return object
    }
    let original = try JSONSerialization.jsonObject(with: modelFile("test-models/legacy-base-score", "model.json"))
    return try JSONSerialization.data(withJSONObject: replace(original, path[...])!)
}

private let tree0 = ["learner", "gradient_booster", "model", "trees", "0"]

/// A hand-written model: one tree per entry, each a root split on `feature` < `threshold`
/// with two leaves.
private func tinyModel(baseScore: Any = "5E-1", trees: [(feature: Int, threshold: Double, defaultLeft: Int, left: Double, right: Double)]) throws -> Data {
    let treeObjects: [[String: Any]] = trees.enumerated().map { index, tree in
        [
            "id": index,
            "left_children": [1, -1, -1], "right_children": [2, -1, -1],
            "split_indices": [tree.feature, 0, 0], "split_conditions": [tree.threshold, tree.left, tree.right],
            "default_left": [tree.defaultLeft, 0, 0], "split_type": [0, 0, 0],
            "tree_param": ["num_nodes": "3", "num_feature": "2", "size_leaf_vector": "1"],
        ]
    }
    let model: [String: Any] = [
        "version": [3, 2, 0],
        "learner": [
            "objective": ["name": "binary:logistic"],
            "learner_model_param": ["base_score": baseScore, "num_feature": "2", "num_class": "0", "num_target": "1"],
            "feature_names": [String](),
            "gradient_booster": [
                "name": "gbtree",
                "model": [
                    "gbtree_model_param": ["num_trees": "\(trees.count)", "num_parallel_tree": "1"],
                    "tree_info": Array(repeating: 0, count: trees.count),
                    "trees": treeObjects,
                ],
            ],
        ],
    ]
    return try JSONSerialization.data(withJSONObject: model)
}

@Suite("XGBoost evaluator")
struct XGBoostModelTests {
    @Test("reproduces xgboost on every committed vector", arguments: [
        ("purchase-predictor", 100, 334),
        ("test-models/missing-values", 40, 258),
        ("test-models/legacy-base-score", 6, 232),
    ])
    func parity(directory: String, trees: Int, rows: Int) throws {
        let model = try XGBoostModel(json: modelFile(directory, "model.json"))
        try model.requireFeatures(contractFeatures)
        #expect(model.treeCount == trees)
        #expect(model.featureCount == 6)
        #expect(model.featureNames == contractFeatures)

        let vectors = try ModelVectors(json: modelFile(directory, "vectors.json"))
        #expect(vectors.rows.count == rows)
        let (maxDiff, worstIndex) = try vectors.maxAbsoluteDifference(model: model)
        #expect(maxDiff <= ModelVectors.tolerance, "worst row \(worstIndex)")

        for (index, row) in vectors.rows.enumerated() {
            let margin = try #require(row.margin)
            #expect(abs(try model.margin(row.features) - margin) <= 1e-6, "row \(index)")
        }
        let batch = try model.probabilities(batch: vectors.rows.map(\.features))
        #expect(batch.count == rows)
        #expect(zip(batch, vectors.rows).allSatisfy { abs($0 - $1.probability) <= ModelVectors.tolerance })
    }

    @Test func missingValuesTakeTheDefaultBranch() throws {
        let model = try XGBoostModel(json: tinyModel(trees: [
            (feature: 0, threshold: 0.5, defaultLeft: 1, left: 1.0, right: -1.0),
            (feature: 1, threshold: 0.5, defaultLeft: 0, left: 0.25, right: -0.25),
        ]))
        #expect(try model.margin([.nan, .nan]) == 1.0 - 0.25)
        #expect(try model.margin([0, 0]) == 1.0 + 0.25)
        #expect(try model.margin([1, 1]) == -1.0 - 0.25)
        #expect(try model.margin([.nan, 0]) == 1.0 + 0.25)

        let vectors = try ModelVectors(json: modelFile("test-models/missing-values", "vectors.json"))
        #expect(vectors.rows.filter { $0.features.contains(where: \.isNaN) }.count == 141)
    }

    @Test func comparesInFloat32() throws {
        let threshold = Float(0.1)
        let model = try XGBoostModel(json: tinyModel(trees: [
            (feature: 0, threshold: Double(threshold), defaultLeft: 0, left: 1.0, right: -1.0),
        ]))
        #expect(try model.margin([Double(threshold), 0]) == -1, "equal to the threshold goes right")
        #expect(try model.margin([0.1, 0]) == -1, "a double below the threshold that rounds to it goes right")
        #expect(try model.margin([Double(threshold.nextDown), 0]) == 1)
        #expect(try model.margin([.infinity, 0]) == -1)
        #expect(try model.margin([-.infinity, 0]) == 1)
        #expect(try model.margin([1e300, 0]) == -1)
    }

    @Test func readsBothBaseScoreForms() throws {
        let bracketed = try XGBoostModel(json: modelFile("purchase-predictor", "model.json"))
        #expect(bracketed.baseScore == Double(Float(0.39675)))
        let legacy = try XGBoostModel(json: modelFile("test-models/legacy-base-score", "model.json"))
        #expect(legacy.baseScore == Double(Float(0.43388933)))
        let missing = try XGBoostModel(json: modelFile("test-models/missing-values", "model.json"))
        #expect(missing.baseScore == Double(Float(0.3)))

        let leaf = (feature: 0, threshold: 0.5, defaultLeft: 0, left: 0.0, right: 0.0)
        for form in ["5E-1", "[5E-1]", " [ 0.5 ] ", "0.5"] as [Any] + [0.5] {
            let model = try XGBoostModel(json: tinyModel(baseScore: form, trees: [leaf]))
            #expect(model.baseScore == 0.5, "\(form)")
            #expect(try model.margin([0, 0]) == 0, "\(form)")
            #expect(try model.probability([0, 0]) == 0.5, "\(form)")
        }
        let quarter = try XGBoostModel(json: tinyModel(baseScore: "[2.5E-1]", trees: [leaf]))
        #expect(abs(try quarter.margin([0, 0]) - log(0.25 / 0.75)) < 1e-6)
    }

    @Test func rejectsInputOfTheWrongLength() throws {
        let model = try XGBoostModel(json: modelFile("purchase-predictor", "model.json"))
        #expect(throws: XGBoostModelError.wrongInputLength(expected: 6, got: 5, row: nil)) {
            try model.probability([0, 0, 0, 0, 0])
        }
        #expect(throws: XGBoostModelError.wrongInputLength(expected: 6, got: 7, row: nil)) {
            try model.margin([0, 0, 0, 0, 0, 0, 0])
        }
        #expect(throws: XGBoostModelError.wrongInputLength(expected: 6, got: 0, row: 1)) {
            try model.probabilities(batch: [[0, 0, 0, 0, 0, 0], []])
        }
    }

    @Test func refusesCorruptModels() throws {
        let legacy = try modelFile("test-models/legacy-base-score", "model.json")
        #expect(throws: XGBoostModelError.self) { try XGBoostModel(json: legacy.prefix(legacy.count / 2)) }
        if case .invalidJSON = try #require(throwing(try XGBoostModel(json: legacy.prefix(100)))) {} else {
            Issue.record("a truncated model is not reported as invalid JSON")
        }
        let deep = Data((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8)
        if case .invalidJSON = try #require(throwing(try XGBoostModel(json: deep))) {} else {
            Issue.record("deeply nested JSON is not reported as invalid JSON")
        }
        #expect(throws: XGBoostModelError.wrongType(field: "the root", expected: "an object")) {
            try XGBoostModel(json: Data("[]".utf8))
        }

        #expect(throws: XGBoostModelError.unsupportedObjective("reg:squarederror")) {
            try XGBoostModel(json: corrupted(["learner", "objective", "name"], "reg:squarederror"))
        }
        #expect(throws: XGBoostModelError.unsupportedBooster("dart")) {
            try XGBoostModel(json: corrupted(["learner", "gradient_booster", "name"], "dart"))
        }
        #expect(throws: XGBoostModelError.invalidValue(
            field: "learner.learner_model_param.num_class", reason: "multi-class models are not supported")) {
            try XGBoostModel(json: corrupted(["learner", "learner_model_param", "num_class"], "3"))
        }

        // Wrong feature count: splits on a feature the model does not have, or more features than required.
        #expect(throws: XGBoostModelError.featureIndexOutOfRange(tree: 0, node: 0, index: 5, featureCount: 5)) {
            try XGBoostModel(json: corrupted(["learner", "feature_names"], [String]()).replacing("\"num_feature\":\"6\"", "\"num_feature\":\"5\""))
        }
        let sevenFeatures = try XGBoostModel(json: corrupted(["learner", "feature_names"], [String]())
            .replacing("\"num_feature\":\"6\"", "\"num_feature\":\"7\""))
        #expect(sevenFeatures.featureNames == nil)
        #expect(throws: XGBoostModelError.featureCountMismatch(expected: 6, model: 7)) {
            try sevenFeatures.requireFeatures(contractFeatures)
        }
        #expect(throws: XGBoostModelError.featureNamesMismatch(expected: contractFeatures.reversed(), model: contractFeatures)) {
            try XGBoostModel(json: legacy).requireFeatures(contractFeatures.reversed())
        }

        #expect(throws: XGBoostModelError.childOutOfRange(tree: 0, node: 0, child: 99, nodeCount: 15)) {
            try XGBoostModel(json: corrupted(tree0 + ["left_children", "0"], 99))
        }
        #expect(throws: XGBoostModelError.childOutOfRange(tree: 0, node: 1, child: 0, nodeCount: 15)) {
            try XGBoostModel(json: corrupted(tree0 + ["right_children", "1"], 0))
        }
        #expect(throws: XGBoostModelError.cycle(tree: 0, node: 1)) {
            try XGBoostModel(json: corrupted(tree0 + ["left_children", "3"], 1))
        }
        #expect(throws: XGBoostModelError.cycle(tree: 0, node: 3)) {
            try XGBoostModel(json: corrupted(tree0 + ["right_children", "1"], 3))
        }
        #expect(throws: XGBoostModelError.inconsistentTree(tree: 0, reason: "node 7 is a leaf (left_children -1) but right_children is 3")) {
            try XGBoostModel(json: corrupted(tree0 + ["right_children", "7"], 3))
        }
        #expect(throws: XGBoostModelError.categoricalSplit(tree: 0, node: 2)) {
            try XGBoostModel(json: corrupted(tree0 + ["split_type", "2"], 1))
        }
        #expect(throws: XGBoostModelError.inconsistentTree(tree: 0, reason: "split_conditions has 14 entries, left_children 15")) {
            try XGBoostModel(json: corrupted(tree0 + ["split_conditions"], Array(repeating: 0.5, count: 14)))
        }
        #expect(throws: XGBoostModelError.invalidValue(
            field: "learner.gradient_booster.model.trees[0].split_conditions[0]", reason: "1e+39 is not a finite float32")) {
            try XGBoostModel(json: corrupted(tree0 + ["split_conditions", "0"], 1e39))
        }
        #expect(throws: XGBoostModelError.wrongType(
            field: "learner.gradient_booster.model.trees[0].split_indices[0]", expected: "an integer")) {
            try XGBoostModel(json: corrupted(tree0 + ["split_indices", "0"], 1.5))
        }

        #expect(throws: XGBoostModelError.missingField("learner.gradient_booster.model.trees")) {
            try XGBoostModel(json: corrupted(["learner", "gradient_booster", "model", "trees"], nil))
        }
        #expect(throws: XGBoostModelError.treeCountMismatch(declared: 6, actual: 0)) {
            try XGBoostModel(json: corrupted(["learner", "gradient_booster", "model", "trees"], [Any]()))
        }
        #expect(throws: XGBoostModelError.missingField("learner.gradient_booster.model.trees[0].left_children")) {
            try XGBoostModel(json: corrupted(tree0 + ["left_children"], nil))
        }

        for bad in ["abc", "", "[]", "[0.1,0.2]", "[0.5", "1.5", "0", "1", "nan", "-0.2"] {
            #expect(throws: XGBoostModelError.invalidBaseScore("\"\(bad)\""), "\(bad)") {
                try XGBoostModel(json: corrupted(["learner", "learner_model_param", "base_score"], bad))
            }
        }
        #expect(throws: XGBoostModelError.missingField("learner.learner_model_param.base_score")) {
            try XGBoostModel(json: corrupted(["learner", "learner_model_param", "base_score"], nil))
        }
    }

    @Test func errorsNameTheField() throws {
        let badChild = try corrupted(tree0 + ["left_children", "0"], 99)
        let error = try #require(throwing(try XGBoostModel(json: badChild)))
        #expect(error.description == "model: trees[0]: node 0 has child 99, outside 1..<15")
        let badBase = try corrupted(["learner", "learner_model_param", "base_score"], "abc")
        let base = try #require(throwing(try XGBoostModel(json: badBase)))
        #expect(base.description == #"model: learner.learner_model_param.base_score "abc" is not one number in (0, 1)"#)
    }

    @Test func decodesAsPartOfAMessage() throws {
        struct Message: Decodable {
            let version: String
            let model: XGBoostModel
            let vectors: ModelVectors?
        }
        let model = try String(decoding: modelFile("test-models/missing-values", "model.json"), as: UTF8.self)
        let vectors = try String(decoding: modelFile("test-models/missing-values", "vectors.json"), as: UTF8.self)
        let message = try JSONDecoder().decode(
            Message.self, from: Data(#"{"version": "2", "model": \#(model), "vectors": \#(vectors)}"#.utf8))
        let (maxDiff, _) = try #require(message.vectors).maxAbsoluteDifference(model: message.model)
        #expect(maxDiff <= ModelVectors.tolerance)

        let bad = model.replacingOccurrences(of: "binary:logistic", with: "multi:softprob")
        #expect(throws: XGBoostModelError.unsupportedObjective("multi:softprob")) {
            try JSONDecoder().decode(Message.self, from: Data(#"{"version": "2", "model": \#(bad)}"#.utf8))
        }
    }

    @Test func vectorsReportTheWorstRow() throws {
        let model = try XGBoostModel(json: modelFile("purchase-predictor", "model.json"))
        var rows = try ModelVectors(json: modelFile("purchase-predictor", "vectors.json")).rows
        rows[7].probability = min(1, rows[7].probability + 0.01)
        let (maxDiff, worstIndex) = try ModelVectors(rows: rows).maxAbsoluteDifference(model: model)
        #expect(worstIndex == 7)
        #expect(maxDiff > 0.009)

        #expect(throws: ModelVectorsError.empty) { try ModelVectors(rows: []).maxAbsoluteDifference(model: model) }
        #expect(throws: ModelVectorsError.featureCount(row: 1, expected: 6, got: 2)) {
            try ModelVectors(json: Data(#"[{"features": [0,0,0,0,0,0], "probability": 0.5}, {"features": [1, null], "probability": 0.5}]"#.utf8))
                .maxAbsoluteDifference(model: model)
        }
        #expect(throws: ModelVectorsError.invalidRow(index: 0, reason: "probability is missing or not a number in [0, 1]")) {
            try ModelVectors(json: Data(#"[{"features": [0,0,0,0,0,0]}]"#.utf8))
        }
        #expect(throws: ModelVectorsError.invalidRow(index: 0, reason: "features[1] is neither a number nor null")) {
            try ModelVectors(json: Data(#"[{"features": [0,"x",0,0,0,0], "probability": 0.5}]"#.utf8))
        }
        #expect(throws: ModelVectorsError.self) { try ModelVectors(json: Data(#"[{"features": [0"#.utf8)) }
        let parsed = try ModelVectors(json: Data(#"[{"features": [null, 1, 0, 0.75, 0.3, 0], "probability": 0.5}]"#.utf8))
        #expect(parsed.rows[0].features[0].isNaN)
        #expect(parsed.rows[0].margin == nil)
    }
}

private func throwing<T>(_ body: @autoclosure () throws(XGBoostModelError) -> T) -> XGBoostModelError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}

private extension Data {
    func replacing(_ old: String, _ new: String) -> Data {
        Data(String(decoding: self, as: UTF8.self).replacingOccurrences(of: old, with: new).utf8)
    }
}
