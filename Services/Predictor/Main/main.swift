import GuardianPredictor
import GuardianShared

await ServiceMain.run(name: PredictorService.name) { config, logger in try PredictorService(config: config, logger: logger) }
