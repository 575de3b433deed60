import ArgumentParser
import Foundation
import GuardianShared

/// `guardian family set FAMILY --parent P --child DEVICE=NAME`: publishes a family (retained).
struct FamilyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "family", abstract: "Manage families.", subcommands: [Set.self])

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Publish guardian/families/{familyId} (retained): who may command whom.")

        @Argument(help: "The family id.")
        var family: String

        @Option(name: .customLong("parent"), help: "A parent's user id (repeatable).")
        var parents: [String] = []

        @Option(name: .customLong("child"), help: "A child as DEVICE_ID=NAME (repeatable).")
        var children: [String] = []

        func validate() throws {
            guard Identifier.isValid(family) else { throw ValidationError("'\(family)' is not a family id") }
            guard !parents.isEmpty, !children.isEmpty else { throw ValidationError("give at least one --parent and one --child") }
        }

        func run() async throws {
            let members = try children.map { spec -> Family.Child in
                let parts = spec.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2, Identifier.isValid(parts[0]), !parts[1].isEmpty else {
                    throw ValidationError("--child must be DEVICE_ID=NAME, got '\(spec)'")
                }
                return Family.Child(deviceId: parts[0], name: parts[1])
            }
            for parent in parents where !Identifier.isValid(parent) { throw ValidationError("'\(parent)' is not a user id") }
            let (client, topics) = try await BusConnection.connect(clientSuffix: "family")
            try await client.publish(
                "\(topics.prefix)/families/\(family)", payload: GuardianJSON.encode(Family(parents: parents, children: members)), retain: true)
            await client.shutdown()
            print("family \(family): parents \(parents.joined(separator: ", ")); children \(members.map { "\($0.name) (\($0.deviceId))" }.joined(separator: ", "))")
        }
    }
}
