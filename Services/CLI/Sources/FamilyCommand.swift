import ArgumentParser
import BrokerAccess
import Foundation
import GuardianShared

/// `guardian family set FAMILY --parent P --child DEVICE=NAME`: publishes a family (retained).
struct FamilyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "family", abstract: "Manage families.", subcommands: [Set.self])

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Publish guardian/families/{familyId} (retained): who may command whom.",
            discussion: "As admin, also gives the parents' accounts read access to their children's data (for the family console).")

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
            let (client, topics, user) = try await BusConnection.connectAsUser(clientSuffix: "family")
            try await client.publish(
                "\(topics.prefix)/families/\(family)", payload: GuardianJSON.encode(Family(parents: parents, children: members)), retain: true)
            print("family \(family): parents \(parents.joined(separator: ", ")); children \(members.map { "\($0.name) (\($0.deviceId))" }.joined(separator: ", "))")
            if user == "admin" {
                let enrolment = try await Enrolment(client: client, prefix: topics.prefix)
                let missing = try await enrolment.setFamily(family, parents: parents, children: members.map(\.deviceId))
                print("the parents' accounts may now read their children's data" + (missing.isEmpty ? "" : " (no account yet: \(missing.joined(separator: ", ")); set the family again once enrolled)"))
            } else {
                print("note: connected as \(user), not admin: the parents' accounts were not given access to the children's data (the console needs it)")
            }
            await client.shutdown()
        }
    }
}
