import Foundation
import GuardianShared
import MQTT
import ServiceLifecycle

/// Runs a Guardian service in this process, as a test does, and returns once it announced itself
/// online on `guardian/services/{name}/{instance}` (live, not the retained presence of an earlier run):
/// its subscriptions are then in place. `timeout` is a ceiling for a service that never comes up.
public func startInProcess<S: Service & Sendable>(
    _ service: S, name: String, instance: String = "test", observer: MQTTClient, timeout: Duration = .seconds(120)
) async throws -> Task<Void, any Error> {
    let presence = try await MessageCollector(observer, "guardian/services/\(name)/\(instance)")
    let task = Task { try await service.run() }
    let deadline = ContinuousClock.now + timeout
    let online = { presence.all.contains { !$0.retain && (try? JSONDecoder().decode(Presence.self, from: $0.payload))?.status == .online } }
    while !online() {
        guard ContinuousClock.now < deadline else {
            task.cancel()
            throw TestBrokerError.cannotStart("\(name) did not come online")
        }
        try await Task.sleep(for: .milliseconds(10))
    }
    return task
}

/// Stops a service started with `startInProcess` (a graceful shutdown, as SIGTERM would).
public func stopInProcess(_ task: Task<Void, any Error>?) async {
    task?.cancel()
    _ = try? await task?.value
}
