import ArgumentParser
import BrokerAccess
import Foundation
import GuardianShared
import MQTT

/// `guardian devices add|remove|list`: the broker's accounts for phones, tablets, parents and
/// OwnTracks, changed at run time (no broker restart). Runs as `admin`.
struct DevicesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "Enrol, list and revoke the broker accounts of devices, children, parents and OwnTracks phones.",
        discussion: "Connect as admin: GUARDIAN_MQTT_USERNAME=admin GUARDIAN_MQTT_PASSWORD=\"$(scripts/credential.sh admin)\".",
        subcommands: [Add.self, Remove.self, List.self])

    /// Connects as the configured user (admin) and opens the enrolment.
    static func enrolment() async throws -> (Enrolment, MQTTClient) {
        let (client, topics, _) = try await BusConnection.connectAsUser(clientSuffix: "devices")
        return (try await Enrolment(client: client, prefix: topics.prefix), client)
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an account with a new password, printed once; it can connect at once.")

        @Argument(help: "The id: the device id, the parent's user id or the OwnTracks user ([A-Za-z0-9_-]{1,64}).")
        var id: String

        @Option(help: "device, child, parent or owntracks.")
        var role: String

        @Option(help: "For OwnTracks: the host name phones reach the broker by (default: GUARDIAN_PUBLIC_HOST or this machine's name).")
        var host: String?

        @Option(help: "For OwnTracks: the broker's TLS port phones reach.")
        var port = 8883

        func validate() throws {
            guard Identifier.isValid(id) else { throw ValidationError("\(id) is not an id of [A-Za-z0-9_-]{1,64}") }
            guard AccessRole.enrollable.contains(role) else {
                throw ValidationError("--role must be one of \(AccessRole.enrollable.joined(separator: ", "))")
            }
        }

        func run() async throws {
            let (enrolment, client) = try await DevicesCommand.enrolment()
            defer { Task { await client.shutdown() } }
            let account = try await enrolment.add(id, role: AccessRole(kind: role)!)
            print("enrolled \(account.id) as \(role)")
            print("password: \(account.password)")
            print("(shown once: the broker keeps only its hash; to replace it, remove and add again)")
            if account.role == .owntracks {
                let host = host ?? ProcessInfo.processInfo.environment["GUARDIAN_PUBLIC_HOST"] ?? ProcessInfo.processInfo.hostName
                print(OwnTracksSettings(host: host, port: port, user: account.id, password: account.password).text)
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete an account: it is disconnected at once and refused afterwards.")

        @Argument(help: "The id to revoke.")
        var id: String

        func run() async throws {
            let (enrolment, client) = try await DevicesCommand.enrolment()
            defer { Task { await client.shutdown() } }
            guard try await enrolment.remove(id) else {
                print("no account \(id)")
                throw ExitCode(1)
            }
            print("removed \(id): disconnected, and refused from now on")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Every account on the broker and its role.")

        func run() async throws {
            let (enrolment, client) = try await DevicesCommand.enrolment()
            defer { Task { await client.shutdown() } }
            let accounts = try await enrolment.list()
            let width = max(2, accounts.map(\.id.count).max() ?? 0)
            print("id".padding(toLength: width, withPad: " ", startingAt: 0) + "  role")
            for account in accounts {
                print(account.id.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + (account.role?.kind ?? "(not made by Guardian)"))
            }
        }
    }
}
