import ArgumentParser
import Foundation
import GuardianShared

/// `guardian export DEVICE -o FILE.json`: everything every running instance holds about a device,
/// gathered into one readable file.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Gather everything Guardian holds about a device into one JSON file.",
        discussion: "Asks as the connecting user (the device itself, a parent of its family, or admin); names every instance that did not answer in time.")

    @Argument(help: "The device whose data to export.")
    var device: String

    @Option(name: .shortAndLong, help: "The file to write.")
    var output: String

    @Option(help: "Seconds to wait for the answers.")
    var timeout = 10.0

    func validate() throws {
        guard Identifier.isValid(device) else { throw ValidationError("\(device) is not an id of [A-Za-z0-9_-]{1,64}") }
    }

    func run() async throws {
        let (client, topics, requester) = try await BusConnection.connectAsUser(clientSuffix: "export")
        let outcome = try await PrivacyExchange(client: client, topics: topics, requester: requester)
            .ask(.export, deviceId: device, timeout: .seconds(timeout))
        await client.shutdown()
        let file = PrivacyExportFile(outcome)
        try file.encoded().write(to: URL(fileURLWithPath: output))
        print("wrote \(output): \(file.answers.count) answers (\(Set(file.answers.map(\.service)).sorted().joined(separator: ", ")))")
        for instance in file.notAnswered { print("did not answer in time: \(instance)") }
        for (instance, reason) in file.refused.sorted(by: { $0.key < $1.key }) { print("refused by \(instance): \(reason)") }
        if file.answers.isEmpty && file.notAnswered.isEmpty && file.refused.isEmpty {
            print("no service answered within \(String(format: "%g", timeout)) s: are they running? (guardian status)")
        }
        if !file.notAnswered.isEmpty || !file.refused.isEmpty || file.answers.isEmpty { throw ExitCode(1) }
    }
}
