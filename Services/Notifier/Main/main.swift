import GuardianNotifier
import GuardianShared

await ServiceMain.run(name: NotifierService.name) { config, logger in try NotifierService(config: config, logger: logger) }
