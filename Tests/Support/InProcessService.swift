import Foundation
import MQTT
import ServiceLifecycle

/// Runs a Guardian service in this process, as a test does, and returns once its retained presence
/// (`guardian/services/{name}/{instance}`) says online: its subscriptions are then in place.
public func startInProcess<S: Service & Sendable>(
    _ service: S, name: String, instance: String = "test", observer: MQTTClient, timeout: Duration = .seconds(10)
) async throws -> Task<Void, any Error> {
    let presence = try await MessageCollector(observer, "guardian/services/\(name)/\(instance)")
    let task = Task { try await service.run() }
    let deadline = ContinuousClock.now + timeout
    while !presence.objects.contains(where: { $0["status"] as? String == "online" }) {
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
