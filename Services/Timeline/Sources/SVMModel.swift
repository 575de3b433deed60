import CSVM
import Foundation
import MQTT

/// A libsvm C-SVC model with probability estimates, in its saved (libsvm text) form and loaded
/// from it, so it owns its support vectors and no training arrays need to outlive training.
///
/// Immutable once built: `svm_predict_probability` only reads the model, so one may be shared
/// between threads. Training, saving and loading run behind `LibSVM.lock`: they use `rand()`
/// (seeded here for reproducible probability estimates), the print hook and `setlocale`,
/// which are process-wide.
final class SVMModel: @unchecked Sendable {
    struct Parameters: Sendable, Hashable {
        var c: Double
        var gamma: Double
        var seed: UInt32 = 1
        var cacheMegabytes: Double = 32
        var tolerance: Double = 0.001
    }

    private let model: UnsafeMutablePointer<svm_model>
    /// The model as `svm_save_model` writes it.
    let bytes: Data
    /// The class labels in the order of `probabilities`' results (`svm_get_labels`).
    let labels: [Int32]

    /// Trains on dense rows (`features[i]` labelled `labels[i]`); zeros are left out of the
    /// sparse vectors, as libsvm expects.
    static func train(features: [[Double]], labels: [Int32], parameters: Parameters) throws -> SVMModel {
        guard !features.isEmpty, features.count == labels.count else { throw SVMError.noTrainingData }
        guard Set(labels).count >= 2 else { throw SVMError.tooFewCategories }
        let nodeCount = features.reduce(0) { $0 + $1.count(where: { $0 != 0 }) + 1 }
        let nodes = UnsafeMutablePointer<svm_node>.allocate(capacity: nodeCount)
        let rows = UnsafeMutablePointer<UnsafeMutablePointer<svm_node>?>.allocate(capacity: features.count)
        let targets = UnsafeMutablePointer<Double>.allocate(capacity: features.count)
        defer {
            nodes.deallocate()
            rows.deallocate()
            targets.deallocate()
        }
        var next = 0
        for (row, values) in features.enumerated() {
            rows[row] = nodes + next
            targets[row] = Double(labels[row])
            for (index, value) in values.enumerated() where value != 0 {
                nodes[next] = svm_node(index: Int32(index + 1), value: value)
                next += 1
            }
            nodes[next] = svm_node(index: -1, value: 0)
            next += 1
        }
        var problem = svm_problem(l: Int32(features.count), y: targets, x: rows)
        var parameter = svm_parameter(
            svm_type: Int32(C_SVC), kernel_type: Int32(RBF), degree: 3, gamma: parameters.gamma, coef0: 0,
            cache_size: parameters.cacheMegabytes, eps: parameters.tolerance, C: parameters.c,
            nr_weight: 0, weight_label: nil, weight: nil, nu: 0.5, p: 0.1, shrinking: 1, probability: 1)

        let bytes: Data = try LibSVM.lock.withLock {
            if let message = svm_check_parameter(&problem, &parameter) {
                throw SVMError.invalidParameters(String(cString: message))
            }
            svm_set_print_string_function { _ in }
            // libmosquitto seeds rand() on its first use in the process: done first, not halfway through.
            MQTTClient.prepareLibrary()
            srand(parameters.seed)
            guard let trained = svm_train(&problem, &parameter) else { throw SVMError.trainingFailed }
            defer {
                var doomed: UnsafeMutablePointer<svm_model>? = trained
                svm_free_and_destroy_model(&doomed)
            }
            return try LibSVM.save(trained)
        }
        return try SVMModel(bytes: bytes)
    }

    /// Loads a model saved by `bytes`; it must carry probability information.
    init(bytes: Data) throws {
        guard let loaded = try LibSVM.load(bytes) else { throw SVMError.unreadableModel }
        guard svm_check_probability_model(loaded) == 1, svm_get_svm_type(loaded) == Int32(C_SVC) else {
            var doomed: UnsafeMutablePointer<svm_model>? = loaded
            svm_free_and_destroy_model(&doomed)
            throw SVMError.unreadableModel
        }
        model = loaded
        self.bytes = bytes
        var labels = [Int32](repeating: 0, count: Int(svm_get_nr_class(loaded)))
        svm_get_labels(loaded, &labels)
        self.labels = labels
    }

    deinit {
        var doomed: UnsafeMutablePointer<svm_model>? = model
        svm_free_and_destroy_model(&doomed)
    }

    /// The probability of each of `labels` for a dense feature row.
    func probabilities(_ features: [Double]) -> [Double] {
        var estimates = [Double](repeating: 0, count: labels.count)
        withUnsafeTemporaryAllocation(of: svm_node.self, capacity: features.count + 1) { nodes in
            var next = 0
            for (index, value) in features.enumerated() where value != 0 {
                nodes[next] = svm_node(index: Int32(index + 1), value: value)
                next += 1
            }
            nodes[next] = svm_node(index: -1, value: 0)
            _ = svm_predict_probability(model, nodes.baseAddress, &estimates)
        }
        return estimates
    }
}

/// Why training or loading a classifier failed.
public enum SVMError: Error, Equatable {
    case noTrainingData
    case tooFewCategories
    case invalidParameters(String)
    case trainingFailed
    case unreadableModel
    case fileSystem(String)
}

/// libsvm's process-wide state, serialized.
enum LibSVM {
    static let lock = NSLock()

    /// Saves through a temporary file (libsvm writes only to paths). Call holding `lock`.
    static func save(_ model: UnsafePointer<svm_model>) throws -> Data {
        let url = temporaryURL()
        defer { try? FileManager.default.removeItem(at: url) }
        guard svm_save_model(url.path, model) == 0 else { throw SVMError.fileSystem("svm_save_model \(url.path)") }
        return try Data(contentsOf: url)
    }

    static func load(_ bytes: Data) throws -> UnsafeMutablePointer<svm_model>? {
        let url = temporaryURL()
        defer { try? FileManager.default.removeItem(at: url) }
        try bytes.write(to: url)
        return lock.withLock { svm_load_model(url.path) }
    }

    private static func temporaryURL() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("guardian-svm-\(UUID().uuidString).model")
    }
}
