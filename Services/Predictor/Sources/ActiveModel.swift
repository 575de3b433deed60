import Foundation
import GuardianShared

/// The model predictions use now, and where it came from.
struct ActiveModel: Sendable {
    enum Source: String, Codable, Sendable { case bundled, topic }

    let model: XGBoostModel
    let info: Prediction.ModelInfo
    let source: Source
    let loadedAt: Timestamp

    /// The bundled model: `{directory}/purchase-predictor/model.json` and its `metadata.json`.
    static func bundled(directory: URL) throws -> ActiveModel {
        let folder = directory.appendingPathComponent("purchase-predictor")
        let json = try Data(contentsOf: folder.appendingPathComponent("model.json"))
        struct Metadata: Decodable { var version: String }
        let version = (try? JSONDecoder().decode(Metadata.self, from: Data(contentsOf: folder.appendingPathComponent("metadata.json"))))?.version ?? "bundled"
        let update = try ModelUpdate(version: version, modelJSON: json, expectedSHA256: nil, vectors: nil)
        return ActiveModel(update, source: .bundled)
    }

    init(_ update: ModelUpdate, source: Source, loadedAt: Timestamp = .now()) {
        model = update.model
        info = Prediction.ModelInfo(name: "purchase-predictor", version: update.version, sha256: update.sha256)
        self.source = source
        self.loadedAt = loadedAt
    }

    /// Where the bundled models are when `GUARDIAN_MODELS_DIR` is unset: `./Models`, else the executable's checkout's, else the image's.
    static func defaultModelsDirectory() -> URL {
        let candidates = [
            URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("Models"),
            URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
                .appendingPathComponent("../../../Models").standardizedFileURL,
            URL(fileURLWithPath: "/opt/guardian/Models"),
        ]
        return candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("purchase-predictor/model.json").path) }
            ?? candidates[0]
    }
}

/// `guardian/models/purchase-predictor/status` (retained).
struct ModelStatus: Codable, Sendable, Equatable {
    var version: String
    var sha256: String
    var loadedAt: Timestamp
    var source: ActiveModel.Source
    var lastError: String?
}
