import Foundation
import GuardianShared
import Testing

@Suite("Settings through swift-configuration")
struct SettingsReaderTests {
    @Test("variables keep their names and defaults; a bad value names its variable")
    func typedValues() throws {
        let settings = SettingsReader(environment: ["GUARDIAN_STATS_INTERVAL": " 5 ", "GUARDIAN_GEOFENCE_DWELL_MINUTES": "2.5", "GUARDIAN_X": ""])
        #expect(try settings.integer("GUARDIAN_STATS_INTERVAL", default: 10, in: 1...3600) == 5)
        #expect(try settings.integer("GUARDIAN_SESSION_EXPIRY", default: 7, in: 0...10) == 7)
        #expect(try settings.number("GUARDIAN_GEOFENCE_DWELL_MINUTES", in: 0...1440) == 2.5)
        #expect(settings.text("GUARDIAN_X") == nil)
        let config = try GuardianConfig(environment: ["GUARDIAN_SHARD": "1/3", "GUARDIAN_INSTANCE_ID": "r1"])
        #expect(config.shard == Shard(index: 1, count: 3) && config.instanceId == "r1" && config.mqttURL == "mqtt://127.0.0.1:1883")
        do {
            _ = try GuardianConfig(environment: ["GUARDIAN_STATS_INTERVAL": "often"])
            Issue.record("a bad interval was accepted")
        } catch {
            #expect(error.description == "GUARDIAN_STATS_INTERVAL must be a whole number in 1...3600, got 'often'")
        }
    }

    @Test("passwords and API keys are redacted wherever the settings are printed; other variables are not read")
    func secretsRedacted() throws {
        let settings = SettingsReader(environment: [
            "GUARDIAN_MQTT_PASSWORD": "hunter2-secret", "GUARDIAN_LLM_API_KEY": "sk-abc123", "GUARDIAN_DATA_DIR": "/var/lib/guardian",
            "PATH": "/usr/bin",
        ])
        let printed = settings.debugDescription
        #expect(printed.contains("/var/lib/guardian"))
        #expect(!printed.contains("hunter2") && !printed.contains("sk-abc123") && !printed.contains("/usr/bin"))
        #expect(settings.text("GUARDIAN_MQTT_PASSWORD") == "hunter2-secret")
        do {
            _ = try settings.integer("GUARDIAN_MQTT_PASSWORD", default: 0, in: 0...1)
            Issue.record("a password parsed as a number")
        } catch {
            #expect(!error.description.contains("hunter2"))
        }
    }
}
