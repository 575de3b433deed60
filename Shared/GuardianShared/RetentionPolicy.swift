/// How long a service keeps each kind of data: a documented default per kind, changed with
/// `GUARDIAN_{SERVICE}_RETENTION_{KIND}_DAYS` (e.g. `GUARDIAN_NOTIFIER_RETENTION_HISTORY_DAYS`).
/// Read once, when the service starts.
public struct RetentionPolicy: Sendable, Equatable {
    /// One kind of data and its default lifetime.
    public struct Kind: Sendable, Equatable {
        public var name: String
        public var defaultDays: Double

        public init(_ name: String, days: Double) {
            self.name = name
            defaultDays = days
        }
    }

    /// Lifetime of each kind, in seconds.
    public private(set) var lifetimes: [String: Double]
    /// Seconds between two pruning sweeps (`GUARDIAN_RETENTION_SWEEP_SECONDS`, default 3600).
    public var sweepInterval: Double

    public init(service: String, kinds: [Kind], settings: SettingsReader) throws(ConfigurationError) {
        lifetimes = [:]
        for kind in kinds {
            let days = try settings.number(Self.variable(service: service, kind: kind.name), in: 0.000_001...36500) ?? kind.defaultDays
            lifetimes[kind.name] = days * 86400
        }
        sweepInterval = try settings.number("GUARDIAN_RETENTION_SWEEP_SECONDS", in: 0.1...86400) ?? 3600
    }

    /// `GUARDIAN_NOTIFIER_RETENTION_WEBHOOK_JOBS_DAYS` for `notifier` and `webhookJobs`.
    public static func variable(service: String, kind: String) -> String {
        func upper(_ text: String) -> String {
            var out = ""
            for character in text {
                if character.isUppercase && !out.isEmpty { out.append("_") }
                out.append(character == "-" ? "_" : Character(character.uppercased()))
            }
            return out
        }
        return "GUARDIAN_\(upper(service))_RETENTION_\(upper(kind))_DAYS"
    }

    /// The oldest time each kind may have at `now`.
    public func cutoffs(at now: Timestamp) -> [String: Timestamp] {
        lifetimes.mapValues { now.adding(seconds: -$0) }
    }
}
