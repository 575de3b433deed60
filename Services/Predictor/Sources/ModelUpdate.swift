import Foundation
import GuardianShared

/// A model published on `guardian/models/purchase-predictor` (retained):
/// `{version, sha256?, model: <XGBoost JSON model, as an object or as the file's text>, vectors?}`.
///
/// `sha256` is over the model's JSON exactly as sent: the file's bytes when `model` is a string,
/// the bytes of the `model` value when it is an object.
struct ModelUpdate: Sendable {
    let version: String
    let sha256: String
    let model: XGBoostModel
    let vectors: ModelVectors?

    /// Validates everything: parses, six features in the contract's order, binary:logistic,
    /// the checksum when given, and the vectors within 1e-6 when given.
    init(message payload: Data) throws(ModelUpdateError) {
        struct Envelope: Decodable {
            var version: String
            var sha256: String?
            var vectors: ModelVectors?
        }
        let envelope: Envelope
        do {
            envelope = try JSONDecoder().decodePayload(Envelope.self, from: payload)
        } catch {
            throw .invalid(ContractViolation.from(error).description)
        }
        guard !envelope.version.isEmpty, envelope.version.utf8.count <= 64 else { throw .invalid("version must be 1-64 characters") }
        guard let raw = JSONSpan.rawValue(of: "model", in: payload) else { throw .invalid("model: required field is missing") }
        let modelJSON: Data
        if raw.first == UInt8(ascii: "\"") {
            guard let text = try? JSONDecoder().decode(String.self, from: raw) else { throw .invalid("model: not a valid JSON string") }
            modelJSON = Data(text.utf8)
        } else {
            modelJSON = raw
        }
        try self.init(version: envelope.version, modelJSON: modelJSON, expectedSHA256: envelope.sha256, vectors: envelope.vectors)
    }

    init(version: String, modelJSON: Data, expectedSHA256: String?, vectors: ModelVectors?) throws(ModelUpdateError) {
        let digest = SHA256.hex(modelJSON)
        if let expected = expectedSHA256, expected.lowercased() != digest {
            throw .checksumMismatch(expected: expected, actual: digest)
        }
        do {
            model = try XGBoostModel(json: modelJSON)
            try model.requireFeatures(PurchaseFeatures.names)
        } catch {
            throw .model(error)
        }
        if let vectors {
            do {
                let (difference, worst) = try vectors.maxAbsoluteDifference(model: model)
                guard difference <= ModelVectors.tolerance else { throw ModelUpdateError.vectorsDiffer(maxDifference: difference, row: worst) }
            } catch let error as ModelUpdateError {
                throw error
            } catch {
                throw .invalid("vectors: \(error)")
            }
        }
        self.version = version
        self.sha256 = digest
        self.vectors = vectors
    }
}

/// Why a model was refused.
enum ModelUpdateError: Error, CustomStringConvertible, Equatable {
    case invalid(String)
    case model(XGBoostModelError)
    case checksumMismatch(expected: String, actual: String)
    case vectorsDiffer(maxDifference: Double, row: Int)

    var description: String {
        switch self {
        case .invalid(let why): return why
        case .model(let error): return "model: \(error)"
        case .checksumMismatch(let expected, let actual): return "sha256 mismatch: message says \(expected), model is \(actual)"
        case .vectorsDiffer(let difference, let row): return "vectors do not reproduce: difference \(difference) at row \(row) (limit 1e-6)"
        }
    }
}
