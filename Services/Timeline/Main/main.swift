import GuardianShared
import GuardianTimeline

await ServiceMain.run(name: TimelineService.name) { config, logger in try TimelineService(config: config, logger: logger) }
