import ArgumentParser
import BrokerAccess
import Foundation

/// `guardian broker init`: the broker's accounts on first start, before mosquitto runs.
struct BrokerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "broker", abstract: "Set up the broker's security.", subcommands: [Initialise.self])

    struct Initialise: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "init",
            abstract: "On first start, generate a password for admin and every service and write the broker's account file.",
            discussion: """
                Writes the dynamic-security plugin's file (hashes only) and one file per account in the secrets folder \
                (mode 600). Does nothing when the account file exists: later starts reuse the same passwords.
                """)

        @Option(help: "The dynamic-security plugin's file (plugin_opt_config_file).")
        var securityFile: String

        @Option(help: "The folder of generated passwords, one file per account.")
        var secrets: String

        @Flag(help: "Also enrol the README's sample accounts: phone-alice (device), tablet-sam (child), parent-alex (parent), alice (OwnTracks).")
        var samples = false

        @Option(help: "The topic root the grants are written for.")
        var prefix = ProcessInfo.processInfo.environment["GUARDIAN_TOPIC_PREFIX"] ?? "guardian"

        func run() throws {
            let store = BrokerSecrets(directory: URL(fileURLWithPath: secrets))
            let created = try store.initialise(
                securityFile: securityFile, extra: samples ? BrokerAccount.generatedSamples() : [], prefix: prefix)
            if created {
                print("generated passwords for admin and every service in \(secrets)/ (one file each, readable by you only)")
            }
        }
    }
}
