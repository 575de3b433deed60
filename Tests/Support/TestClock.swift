import GuardianShared
import Synchronization

/// A clock a test moves by hand, handed to a service as its `ServiceClock`.
public final class TestClock: Sendable {
    private let value: Mutex<Timestamp>

    public init(_ rfc3339: String) { value = Mutex(Timestamp(rfc3339: rfc3339)!) }

    public func set(_ rfc3339: String) { value.withLock { $0 = Timestamp(rfc3339: rfc3339)! } }

    public var clock: ServiceClock { ServiceClock { [self] in value.withLock { $0 } } }
}
