import GuardianGeofence
import GuardianShared

await ServiceMain.run(name: GeofenceService.name) { config, logger in try GeofenceService(config: config, logger: logger) }
