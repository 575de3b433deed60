import GuardianCommandRouter
import GuardianShared

await ServiceMain.run(name: CommandRouterService.name) { config, logger in try CommandRouterService(config: config, logger: logger) }
