import Foundation
import GuardianShared
import GuardianTestSupport
import Testing

/// The CLI after `make run`: the broker and generated passwords found from anywhere in the checkout.
@Suite("the CLI finds make run's broker")
struct LocalRunTests {
    /// A checkout with a running `make run`: `.run/connection` and `.run/secrets/`, and a folder deep inside.
    static func checkout() throws -> (TemporaryDirectory, deep: URL) {
        let folder = try TemporaryDirectory()
        let run = folder.url.appendingPathComponent(".run")
        try FileManager.default.createDirectory(at: run.appendingPathComponent("secrets"), withIntermediateDirectories: true)
        try "# written by make run\nurl=mqtt://127.0.0.1:1884\n".write(to: run.appendingPathComponent("connection"), atomically: true, encoding: .utf8)
        for user in ["guardian-cli", "admin"] {
            try "secret-of-\(user)\n".write(to: run.appendingPathComponent("secrets/\(user)"), atomically: true, encoding: .utf8)
        }
        let deep = folder.url.appendingPathComponent("Services/CLI")
        try FileManager.default.createDirectory(at: deep, withIntermediateDirectories: true)
        return (folder, deep)
    }

    @Test("from a folder inside the checkout: make run's URL, the CLI's own account and its generated password")
    func foundFromInside() throws {
        let (folder, deep) = try Self.checkout()
        let run = try #require(LocalRun.find(from: deep))
        #expect(run.url == "mqtt://127.0.0.1:1884")
        let (environment, user) = try #require(run.settings(over: ["PATH": "/usr/bin"], defaultUser: "guardian-cli"))
        #expect(user == "guardian-cli")
        #expect(environment["PATH"] == "/usr/bin")
        let config = try GuardianConfig(environment: environment)
        #expect(config.mqttURL == "mqtt://127.0.0.1:1884")
        #expect(config.mqttUsername == "guardian-cli" && config.mqttPassword == "secret-of-guardian-cli")
        _ = folder
    }

    @Test("a user named in the environment gets their own generated password; explicit settings win")
    func explicitSettingsWin() throws {
        let (folder, deep) = try Self.checkout()
        let run = try #require(LocalRun.find(from: deep))
        let admin = try #require(run.settings(over: ["GUARDIAN_MQTT_USERNAME": "admin"], defaultUser: "guardian-cli"))
        #expect(admin.user == "admin")
        #expect(try GuardianConfig(environment: admin.environment).mqttPassword == "secret-of-admin")
        // A password given stays; a broker given means this run is not used at all.
        let given = try #require(run.settings(over: ["GUARDIAN_MQTT_PASSWORD": "mine"], defaultUser: "guardian-cli"))
        #expect(try GuardianConfig(environment: given.environment).mqttPassword == "mine")
        #expect(run.settings(over: ["GUARDIAN_MQTT_URL": "mqtts://broker.example:8883"], defaultUser: "guardian-cli") == nil)
        // An account make run made no password for connects without one (the broker refuses it, saying so).
        let stranger = try #require(run.settings(over: ["GUARDIAN_MQTT_USERNAME": "parent-zed"], defaultUser: "guardian-cli"))
        #expect(stranger.environment["GUARDIAN_MQTT_PASSWORD_FILE"] == nil)
        _ = folder
    }

    @Test("the instance id make run gives its services comes with its broker (guardian health finds them); one set stays")
    func instanceOfTheRun() throws {
        let (folder, deep) = try Self.checkout()
        let connection = folder.url.appendingPathComponent(".run/connection")
        try "url=mqtt://127.0.0.1:1884\ninstance=local\n".write(to: connection, atomically: true, encoding: .utf8)
        let run = try #require(LocalRun.find(from: deep))
        #expect(run.instance == "local")
        let (environment, _) = try #require(run.settings(over: [:], defaultUser: "guardian-cli"))
        #expect(try GuardianConfig(environment: environment).instanceId == "local")
        let given = try #require(run.settings(over: ["GUARDIAN_INSTANCE_ID": "mine"], defaultUser: "guardian-cli"))
        #expect(try GuardianConfig(environment: given.environment).instanceId == "mine")
    }

    @Test("outside any checkout with a running make run, nothing is found")
    func nothingOutside() throws {
        let folder = try TemporaryDirectory()
        #expect(LocalRun.find(from: folder.url) == nil)
    }
}
