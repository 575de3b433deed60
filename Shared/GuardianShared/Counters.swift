import Synchronization

/// Named counters a service reports in its presence `stats`.
public final class Counters: Sendable {
    private let values = Mutex<[String: Int]>([:])

    public init() {}

    public func increment(_ name: String, by amount: Int = 1) {
        values.withLock { $0[name, default: 0] += amount }
    }

    public func set(_ name: String, to value: Int) {
        values.withLock { $0[name] = value }
    }

    public subscript(name: String) -> Int { values.withLock { $0[name, default: 0] } }

    public func snapshot() -> [String: Int] { values.withLock { $0 } }
}
