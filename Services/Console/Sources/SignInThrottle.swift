import Synchronization

/// Slows password guessing through the console: after `limit` refused sign-ins for one id within
/// `window`, that id is refused at once (without asking the broker) until the oldest refusal ages out.
final class SignInThrottle: Sendable {
    let limit: Int
    let window: Duration
    private let refusals = Mutex<[String: [ContinuousClock.Instant]]>([:])
    /// The most ids remembered; the oldest are forgotten first beyond it.
    static let maxIds = 10_000

    init(limit: Int = 5, window: Duration = .seconds(15 * 60)) {
        self.limit = limit
        self.window = window
    }

    /// How long until `user` may try again, nil when they may now.
    func wait(for user: String, now: ContinuousClock.Instant = .now) -> Duration? {
        refusals.withLock { all in
            let recent = (all[user] ?? []).filter { now - $0 < window }
            all[user] = recent.isEmpty ? nil : recent
            guard recent.count >= limit, let oldest = recent.first else { return nil }
            return window - (now - oldest)
        }
    }

    func refused(_ user: String, now: ContinuousClock.Instant = .now) {
        refusals.withLock { all in
            if all[user] == nil, all.count >= Self.maxIds {
                let stale = all.filter { $0.value.last.map { now - $0 >= window } ?? true }.map(\.key)
                stale.forEach { all.removeValue(forKey: $0) }
                if all.count >= Self.maxIds, let oldest = all.min(by: { ($0.value.last ?? now) < ($1.value.last ?? now) })?.key {
                    all.removeValue(forKey: oldest)
                }
            }
            all[user, default: []].append(now)
        }
    }

    func accepted(_ user: String) { refusals.withLock { _ = $0.removeValue(forKey: user) } }
}
