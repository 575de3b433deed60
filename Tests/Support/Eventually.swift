/// Waits (up to a generous ceiling, never a measure of speed) until `condition` holds; returns
/// whether it did.
public func eventually(_ ceiling: Duration = .seconds(60), _ condition: () async -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + ceiling
    while ContinuousClock.now < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(50))
    }
    return await condition()
}
