import Foundation

extension Process {
    /// Waits for the process to end, `seconds` at most, then kills it (SIGKILL) and waits up to 5 s
    /// more; returns whether it ended on its own. Never `waitUntilExit`, whose wait has no end: on
    /// one of the few threads every test's tasks share, such a wait once held a whole test run.
    @discardableResult
    public func waitForExit(within seconds: TimeInterval) -> Bool {
        var deadline = Date().addingTimeInterval(seconds)
        while isRunning, Date() < deadline { usleep(10_000) }
        guard isRunning else { return true }
        kill(processIdentifier, SIGKILL)
        deadline = Date().addingTimeInterval(5)
        while isRunning, Date() < deadline { usleep(10_000) }
        return false
    }
}
