import GuardianShared

extension IngestService {
    /// The `ingest` program: runs the service until SIGTERM or SIGINT (see `ServiceMain`).
    public static func main() async -> Never {
        await ServiceMain.run(name: name) { config, logger in try IngestService(config: config, logger: logger) }
    }
}
