import Foundation

/// Runs `work`, which blocks (reads a pipe to its end, waits for a process), on a thread of its own.
///
/// Never on one of Swift concurrency's cooperative threads: there are as many as cores, so on a
/// 2-core machine two blocked ones stop every other task of the test process, the services under
/// test included, and a script waiting for those services waits until its own ceiling.
public func blockingWork<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
