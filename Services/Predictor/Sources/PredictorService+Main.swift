import GuardianShared

extension PredictorService {
    /// The `predictor` program: runs the service until SIGTERM or SIGINT (see `ServiceMain`).
    public static func main() async -> Never {
        await ServiceMain.run(name: name) { config, logger in try PredictorService(config: config, logger: logger) }
    }
}
