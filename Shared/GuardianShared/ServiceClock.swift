/// A service's notion of now, injectable so tests can move time (quiet hours, expiring restrictions).
public struct ServiceClock: Sendable {
    public let now: @Sendable () -> Timestamp
    public init(now: @escaping @Sendable () -> Timestamp) { self.now = now }
    public static let system = ServiceClock { .now() }
}
