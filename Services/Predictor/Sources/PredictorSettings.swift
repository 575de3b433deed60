import Foundation
import GuardianShared

/// The predictor's own settings, read once at start.
public struct PredictorSettings: Sendable, Equatable {
    /// A prediction at or above this nudges (`GUARDIAN_PREDICTOR_THRESHOLD`, default 0.70).
    public var threshold: Double
    /// Where the bundled model is (`GUARDIAN_MODELS_DIR`; unset: `./Models`, the checkout's, or the image's).
    public var modelsDirectory: URL

    public init(settings: SettingsReader) throws(ConfigurationError) {
        threshold = try settings.number("GUARDIAN_PREDICTOR_THRESHOLD", in: 0...1) ?? 0.70
        modelsDirectory = settings.text("GUARDIAN_MODELS_DIR").map { URL(fileURLWithPath: $0) } ?? ActiveModel.defaultModelsDirectory()
    }
}
