import Synchronization

/// Runs `operation` for as long as `stillUp()` holds and at most `limit`, and returns what it returns.
/// Throws `lost` as soon as `stillUp()` fails, `late` once `limit` has passed, without waiting for
/// `operation`: an MQTT wait (a subscription's acknowledgement, a publish's) would otherwise last
/// until the broker is back. `operation` is then cancelled, and `abandon` gets what it still returns.
func whileConnected<T: Sendable>(
    _ stillUp: @escaping @Sendable () -> Bool, limit: Duration, lost: BridgeError, late: BridgeError,
    _ operation: @escaping @Sendable () async throws -> T, abandon: @escaping @Sendable (T) -> Void = { _ in }
) async throws(BridgeError) -> T {
    let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, BridgeError>, Never>) in
        let once = Once(continuation)
        let work = Task {
            do {
                let value = try await operation()
                if !once.resume(.success(value)) { abandon(value) }
            } catch let error as BridgeError {
                once.resume(.failure(error))
            } catch {
                once.resume(.failure(stillUp() ? .noAnswer("\(error)") : lost))
            }
        }
        Task {
            let deadline = ContinuousClock.now + limit
            while !once.isDone && stillUp() && ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(20))
            }
            if once.resume(.failure(stillUp() ? late : lost)) { work.cancel() }
        }
    }
    return try outcome.get()
}

/// A continuation resumed by whichever comes first.
private final class Once<T: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<Result<T, BridgeError>, Never>?>

    init(_ continuation: CheckedContinuation<Result<T, BridgeError>, Never>) { self.continuation = Mutex(continuation) }

    var isDone: Bool { continuation.withLock { $0 == nil } }

    /// Resumes with `result` unless it was resumed already; returns whether it did.
    @discardableResult
    func resume(_ result: Result<T, BridgeError>) -> Bool {
        guard let continuation = continuation.withLock({ $0.take() }) else { return false }
        continuation.resume(returning: result)
        return true
    }
}
