import Foundation

/// Why an XGBoost JSON model was refused, or why an input row cannot be evaluated.
///
/// Field paths are relative to the model's root object, e.g.
/// `learner.gradient_booster.model.trees[3].left_children`.
public enum XGBoostModelError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The bytes are not JSON (truncated, malformed, nested too deeply).
    case invalidJSON(String)
    case missingField(String)
    case wrongType(field: String, expected: String)
    case invalidValue(field: String, reason: String)
    /// `learner.objective.name` is not `binary:logistic`.
    case unsupportedObjective(String)
    /// `learner.gradient_booster.name` is not `gbtree` (e.g. `dart`, `gblinear`).
    case unsupportedBooster(String)
    /// `learner.learner_model_param.base_score` is not one float in (0, 1); never defaulted.
    case invalidBaseScore(String)
    /// `gbtree_model_param.num_trees` disagrees with the length of `trees`.
    case treeCountMismatch(declared: Int, actual: Int)
    /// Parallel arrays of a tree disagree in length, or a node is malformed.
    case inconsistentTree(tree: Int, reason: String)
    case childOutOfRange(tree: Int, node: Int, child: Int, nodeCount: Int)
    /// A node is reached twice from the root: a cycle (or a shared subtree).
    case cycle(tree: Int, node: Int)
    case featureIndexOutOfRange(tree: Int, node: Int, index: Int, featureCount: Int)
    /// `split_type` 1 (categorical) is not supported.
    case categoricalSplit(tree: Int, node: Int)
    /// The model's `num_feature` differs from what the caller requires.
    case featureCountMismatch(expected: Int, model: Int)
    /// The model names its features, and not as the caller requires.
    case featureNamesMismatch(expected: [String], model: [String])
    /// An input row has the wrong number of features (`row` is its index in a batch).
    case wrongInputLength(expected: Int, got: Int, row: Int?)

    public var description: String {
        switch self {
        case .invalidJSON(let reason):
            return "model is not valid JSON: \(reason)"
        case .missingField(let field):
            return "model: missing \(field)"
        case .wrongType(let field, let expected):
            return "model: \(field) should be \(expected)"
        case .invalidValue(let field, let reason):
            return "model: \(field): \(reason)"
        case .unsupportedObjective(let name):
            return "model: learner.objective.name is \"\(name)\", only \"binary:logistic\" is supported"
        case .unsupportedBooster(let name):
            return "model: learner.gradient_booster.name is \"\(name)\", only \"gbtree\" is supported"
        case .invalidBaseScore(let text):
            return "model: learner.learner_model_param.base_score \(text) is not one number in (0, 1)"
        case .treeCountMismatch(let declared, let actual):
            return "model: gbtree_model_param.num_trees is \(declared) but trees has \(actual) entries"
        case .inconsistentTree(let tree, let reason):
            return "model: trees[\(tree)]: \(reason)"
        case .childOutOfRange(let tree, let node, let child, let nodeCount):
            return "model: trees[\(tree)]: node \(node) has child \(child), outside 1..<\(nodeCount)"
        case .cycle(let tree, let node):
            return "model: trees[\(tree)]: node \(node) is reached twice from the root (a cycle or shared subtree)"
        case .featureIndexOutOfRange(let tree, let node, let index, let featureCount):
            return "model: trees[\(tree)]: node \(node) splits on feature \(index), the model has \(featureCount) (num_feature)"
        case .categoricalSplit(let tree, let node):
            return "model: trees[\(tree)]: node \(node) is a categorical split (split_type 1), not supported"
        case .featureCountMismatch(let expected, let model):
            return "model has \(model) features (num_feature), expected \(expected)"
        case .featureNamesMismatch(let expected, let model):
            return "model feature_names \(model) differ from the expected \(expected)"
        case .wrongInputLength(let expected, let got, let row):
            return "\(row.map { "row \($0): " } ?? "")\(got) features given, the model takes \(expected)"
        }
    }
}
