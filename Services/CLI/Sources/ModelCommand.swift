import ArgumentParser
import Foundation
import GuardianPredictor
import GuardianShared

/// `guardian model verify MODEL.json VECTORS.json`: does the Swift evaluator reproduce XGBoost?
struct ModelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "model", abstract: "Check purchase-regret models.", subcommands: [Verify.self])

    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the largest difference between the model's predictions and XGBoost's test vectors; exit 1 past 1e-6.")

        @Argument(help: "An XGBoost JSON model.")
        var model: String

        @Argument(help: "Test vectors: [{features, probability}].")
        var vectors: String

        func run() throws {
            let loaded: XGBoostModel
            let rows: ModelVectors
            do {
                loaded = try XGBoostModel(json: Data(contentsOf: URL(fileURLWithPath: model)))
                rows = try ModelVectors(json: Data(contentsOf: URL(fileURLWithPath: vectors)))
            } catch {
                throw CLIFailure("\(error)")
            }
            let (difference, worst) = try rows.maxAbsoluteDifference(model: loaded)
            let verdict = difference <= ModelVectors.tolerance ? "ok" : "FAILED"
            print("\(rows.rows.count) vectors, \(loaded.treeCount) trees: max |difference| = \(difference) (row \(worst)), limit 1e-6: \(verdict)")
            if difference > ModelVectors.tolerance { throw ExitCode(1) }
        }
    }
}

/// `guardian predict`: one prediction from six features, with the bundled or a given model.
struct PredictCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "predict",
        abstract: "Evaluate one feature vector: distanceToMerchant (km), hourOfDay, isWeekend, budgetUtilization, merchantRegretRate, dwellTime (min).")

    @Argument(help: "Six numbers in the model's order, e.g. 0.05 22 1 0.9 0.8 10.")
    var features: [Double]

    @Option(help: "An XGBoost JSON model (default: the bundled Models/purchase-predictor/model.json).")
    var model: String?

    @Option(help: "Nudge threshold, from 0 to 1.")
    var threshold = 0.70

    func validate() throws {
        guard (0...1).contains(threshold) else { throw ValidationError("--threshold must be from 0 to 1, got \(threshold)") }
    }

    func run() throws {
        let path = model ?? URL(fileURLWithPath: "Models/purchase-predictor/model.json").path
        let loaded: XGBoostModel
        do {
            loaded = try XGBoostModel(json: Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw CLIFailure("cannot load \(path): \(error)")
        }
        let input: PurchaseFeatures
        do {
            input = try PurchaseFeatures(vector: features)
        } catch {
            throw ValidationError("\(error)")
        }
        let probability = try loaded.probability(input.vector)
        let result: [String: Any] = [
            "probability": probability, "shouldNudge": probability >= threshold, "riskLevel": RiskLevel(probability: probability).rawValue,
            "threshold": threshold, "modelType": "xgboost",
        ]
        let data = try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
        print(String(decoding: data, as: UTF8.self))
    }
}
