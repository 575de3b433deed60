import GuardianShared

extension GeofenceService {
    /// The `geofence` program: runs the service until SIGTERM or SIGINT (see `ServiceMain`).
    public static func main() async -> Never {
        await ServiceMain.run(name: name) { config, logger in try GeofenceService(config: config, logger: logger) }
    }
}
