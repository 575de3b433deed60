import Synchronization

/// Bounds how many publishes await the broker's acknowledgement, so a test or benchmark can pour
/// messages in as fast as QoS 1 allows without queueing them all in memory.
public final class PublishWindow: Sendable {
    private let state: Mutex<(available: Int, waiters: [CheckedContinuation<Void, Never>])>

    public init(limit: Int) { state = Mutex((limit, [])) }

    /// Waits for a free slot.
    public func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let proceed = state.withLock { s -> Bool in
                if s.available > 0 {
                    s.available -= 1
                    return true
                }
                s.waiters.append(continuation)
                return false
            }
            if proceed { continuation.resume() }
        }
    }

    /// Frees a slot (call from the publish's completion).
    public func release() {
        let waiter = state.withLock { s -> CheckedContinuation<Void, Never>? in
            if s.waiters.isEmpty {
                s.available += 1
                return nil
            }
            return s.waiters.removeFirst()
        }
        waiter?.resume()
    }
}
