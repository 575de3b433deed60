import ArgumentParser
import Foundation
import GuardianShared
import MQTT

/// `guardian health --service S`: exit 0 when the instance's presence is online and fresh (container health checks).
struct HealthCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "health", abstract: "Exit 0 when a service instance is online and reported in the last 30 s (for health checks).")

    @Option(help: "The service name.")
    var service: String

    @Option(help: "The instance id (default: GUARDIAN_INSTANCE_ID or the one the service keeps in its data directory).")
    var instance: String?

    func validate() throws {
        let services = PrivacyExchange.dataServices.keys.sorted()
        guard services.contains(service) else {
            throw ValidationError("no service '\(service)' reports its health: one of \(services.joined(separator: ", "))")
        }
    }

    func run() async throws {
        // In a `make run` checkout its services' instance id (`local`) comes with its broker.
        let environment = BusConnection.environment()
        let config = try GuardianConfig(environment: environment)
        let id = instance ?? InstanceIdentity.current(service: service, config: config) ?? config.instanceId
        guard Identifier.isValid(service), Identifier.isValid(id) else { throw ValidationError("service and instance must be ids") }
        let (client, topics) = try await BusConnection.connect(clientSuffix: "health", environment: environment)
        let subscription = try await client.subscribe(topics.presence(service, id))
        let read = Task { () -> Presence? in
            for await message in subscription { return try? JSONDecoder().decode(Presence.self, from: message.payload) }
            return nil
        }
        let timeout = Task {
            try await Task.sleep(for: .seconds(3))
            read.cancel()
        }
        let presence = await read.value
        timeout.cancel()
        await client.shutdown()
        guard let presence, presence.status == .online, Timestamp.now().secondsSinceEpoch - presence.ts.secondsSinceEpoch < 30 else {
            print("\(service)/\(id): not healthy (\(presence.map { "\($0.status.rawValue) at \($0.ts)" } ?? "no presence"))")
            throw ExitCode(1)
        }
        print("\(service)/\(id): online")
    }
}
