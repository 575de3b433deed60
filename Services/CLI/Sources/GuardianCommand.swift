import ArgumentParser

/// `guardian`: the operator's front door to a running Guardian.
public struct GuardianCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "guardian",
        abstract: "Work with a running Guardian over its MQTT bus.",
        discussion: """
            Connection settings come from GUARDIAN_MQTT_URL, GUARDIAN_MQTT_USERNAME (default guardian-cli) and \
            GUARDIAN_MQTT_PASSWORD (or GUARDIAN_MQTT_PASSWORD_FILE). With GUARDIAN_MQTT_URL unset, run anywhere in a \
            checkout where `make run` runs, it connects to that broker with the password `make run` generated \
            for the user (.run/connection, .run/secrets/) and says so on standard error.
            """,
        subcommands: [TailCommand.self, ZonesCommand.self, ModelCommand.self, PredictCommand.self, TimelineCommand.self, CommandCommand.self, FamilyCommand.self, StatusCommand.self, SimulateCommand.self, HealthCommand.self, ForgetCommand.self, ExportCommand.self, DevicesCommand.self, BrokerCommand.self, VersionCommand.self])

    public init() {}
}
