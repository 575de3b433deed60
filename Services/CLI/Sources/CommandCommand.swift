import ArgumentParser
import Foundation
import GuardianCommandRouter
import GuardianShared
import MQTT

/// `guardian command "Block all games for 2 hours"`: interpret (and, without `--dry-run`, send as a parent).
struct CommandCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "command", abstract: "Interpret a parent's words; without --dry-run, send them and print the router's reply.",
        discussion: "Exits 1 when the words are answered with a question (or, sent, refused or unanswered).")

    @Argument(help: "What the parent says, e.g. \"Block all games for 2 hours\".")
    var text: String

    @Flag(help: "Only print the structured command (built-in interpreter).")
    var dryRun = false

    @Option(help: "The parent's user id (sending).")
    var parent = "parent-alex"

    @Option(help: "The child, by name or device id (when the family has several).")
    var child: String?

    @Option(help: "IANA time zone for relative times in --dry-run.")
    var timezone = "UTC"

    @Option(help: "Seconds to wait for the command-router's reply.")
    var timeout = 10.0

    func run() async throws {
        if dryRun {
            guard let zone = TimeZone(identifier: timezone) else { throw ValidationError("unknown time zone \(timezone)") }
            switch BuiltInInterpreter().interpret(text, now: Date(), timeZone: zone) {
            case .command(let command, let named):
                let encoder = GuardianJSON.encoder()
                print(String(decoding: try encoder.encode(command), as: UTF8.self))
                print("summary: \(command.summary(in: zone))\(named.map { " (child: \($0))" } ?? "")")
            case .clarify(let question):
                // As when sent: anything but a command the router would accept exits 1.
                print("clarify: \(question)")
                throw ExitCode(1)
            }
            return
        }
        guard Identifier.isValid(parent) else { throw ValidationError("'\(parent)' is not a user id") }
        guard timeout > 0 else { throw ValidationError("--timeout must be a positive number of seconds") }
        let (client, topics) = try await BusConnection.connect(clientSuffix: "command")
        let replies = try await client.subscribe("\(topics.prefix)/parents/\(parent)/replies")
        let id = "cli-\(UUID().uuidString.prefix(8))"
        var body: [String: String] = ["id": id, "text": text]
        body["child"] = child
        try await client.publish("\(topics.prefix)/parents/\(parent)/commands", payload: GuardianJSON.encode(body))
        let wait = Task { () -> CommandReply? in
            for await message in replies {
                if let reply = try? JSONDecoder().decode(CommandReply.self, from: message.payload), reply.commandId == id { return reply }
            }
            return nil
        }
        let ceiling = timeout
        let timer = Task {
            try await Task.sleep(for: .seconds(ceiling))
            wait.cancel()
        }
        let reply = await wait.value
        timer.cancel()
        await client.shutdown()
        guard let reply else { throw CLIFailure("no reply from the command-router within \(String(format: "%g", timeout)) s") }
        if reply.status == .rejected {
            // What was refused and why, not what was asked as if it happened.
            print("rejected: \(reply.reason ?? "refused") (asked: \(reply.summary))")
        } else {
            print("\(reply.status.rawValue): \(reply.summary)\(reply.reason.map { " (\($0))" } ?? "")")
        }
        if reply.status != .accepted { throw ExitCode(1) }
    }
}
