import GuardianShared

extension TimelineService {
    /// The `timeline` program: runs the service until SIGTERM or SIGINT (see `ServiceMain`).
    public static func main() async -> Never {
        await ServiceMain.run(name: name) { config, logger in try TimelineService(config: config, logger: logger) }
    }
}
