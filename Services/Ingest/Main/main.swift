import GuardianIngest
import GuardianShared

await ServiceMain.run(name: IngestService.name) { config, logger in try IngestService(config: config, logger: logger) }
