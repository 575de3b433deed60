import ArgumentParser
import BrokerAccess
import Foundation
import GuardianShared
import MQTT

/// `guardian forget DEVICE` / `guardian forget --family ID`: erase a device (or a family's devices
/// and the family) everywhere, and show what each running instance erased.
struct ForgetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forget",
        abstract: "Erase everything Guardian holds about a device, or about every device of a family.",
        discussion: """
            Asks as the connecting user (GUARDIAN_MQTT_USERNAME): the device itself, a parent of its family, or admin. \
            Waits for a receipt from every running instance and exits non-zero when one refused or did not answer.
            """)

    @Argument(help: "The device to erase.")
    var device: String?

    @Option(help: "Erase every device the family lists, then the family itself.")
    var family: String?

    @Option(help: "Seconds to wait for the answers.")
    var timeout = 10.0

    func validate() throws {
        guard (device == nil) != (family == nil) else { throw ValidationError("give either a DEVICE or --family ID") }
        for id in [device, family].compactMap({ $0 }) where !Identifier.isValid(id) {
            throw ValidationError("\(id) is not an id of [A-Za-z0-9_-]{1,64}")
        }
    }

    func run() async throws {
        let (client, topics, requester) = try await BusConnection.connectAsUser(clientSuffix: "forget")
        defer { Task { await client.shutdown() } }
        let exchange = PrivacyExchange(client: client, topics: topics, requester: requester)
        var devices = device.map { [$0] } ?? []
        if let family {
            guard let listed = try await exchange.family(family, timeout: .seconds(timeout)) else {
                print("no family \(family) on \(topics.family(family)) visible to \(requester) (families are read by admin)")
                throw ExitCode(1)
            }
            devices = listed.children.map(\.deviceId)
        }
        var failed = false
        for deviceId in devices {
            let outcome = try await exchange.ask(.forget, deviceId: deviceId, timeout: .seconds(timeout))
            print(Self.table(outcome))
            failed = failed || !outcome.missing.isEmpty || !outcome.refused.isEmpty || outcome.expected.isEmpty
        }
        if let family, !failed {
            // The command-router clears a family once its last child is erased; admin clears what is left.
            if try await exchange.family(family, timeout: .seconds(2)) != nil {
                do {
                    try await client.publish(MQTTOutgoing(topic: topics.family(family), payload: Data(), retain: true))
                } catch {
                    print("cannot clear family \(family) as \(requester): \(error)")
                    failed = true
                }
            }
            if !failed && requester == "admin" {
                // The parents' read access to the family's children goes with it.
                try await Enrolment(client: client, prefix: topics.prefix).removeFamily(family)
            }
            if !failed { print("family \(family) erased") }
        }
        await client.shutdown()
        if failed { throw ExitCode(1) }
    }

    /// service, instance, status and what was erased, one line per instance.
    static func table(_ outcome: PrivacyExchange.Outcome) -> String {
        var lines = ["forget \(outcome.request.deviceId) (request \(outcome.request.id), as \(outcome.requester))"]
        let rows = outcome.expected.union(outcome.receipts.keys).sorted()
        let width = max(14, rows.map(\.service.count).max() ?? 0)
        let instanceWidth = max(8, rows.map(\.instance.count).max() ?? 0)
        func pad(_ text: String, _ n: Int) -> String { text.padding(toLength: max(n, text.count), withPad: " ", startingAt: 0) }
        lines.append("\(pad("SERVICE", width))  \(pad("INSTANCE", instanceWidth))  \(pad("STATUS", 9))  ERASED")
        for row in rows {
            let receipt = outcome.receipts[row]
            let status = receipt?.status.rawValue ?? "no answer"
            let detail: String
            if let receipt, receipt.status == .done {
                let counts = (receipt.erased ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                detail = counts.isEmpty ? "nothing held" : counts.joined(separator: " ")
            } else {
                detail = receipt?.reason ?? ""
            }
            lines.append("\(pad(row.service, width))  \(pad(row.instance, instanceWidth))  \(pad(status, 9))  \(detail)")
        }
        if outcome.expected.isEmpty { lines.append("no running instance announced itself (guardian/services/+/+)") }
        return lines.joined(separator: "\n")
    }
}
