import GuardianShared

extension CommandRouterService {
    /// The `command-router` program: runs the service until SIGTERM or SIGINT (see `ServiceMain`).
    public static func main() async -> Never {
        await ServiceMain.run(name: name) { config, logger in try CommandRouterService(config: config, logger: logger) }
    }
}
