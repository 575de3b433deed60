import GuardianShared

extension NotifierService {
    /// The `notifier` program: runs the service until SIGTERM or SIGINT (see `ServiceMain`).
    public static func main() async -> Never {
        await ServiceMain.run(name: name) { config, logger in try NotifierService(config: config, logger: logger) }
    }
}
