import Foundation
import GuardianShared
import GuardianTestSupport
import Testing

@Suite("Instance identity")
struct InstanceIdentityTests {
    private func config(_ directory: URL, instance: String? = nil) throws -> GuardianConfig {
        var environment = ["GUARDIAN_DATA_DIR": directory.path]
        environment["GUARDIAN_INSTANCE_ID"] = instance
        return try GuardianConfig(environment: environment)
    }

    @Test("an instance keeps the id stored with its data across restarts; another data directory gets another id")
    func keptAcrossRestarts() throws {
        let data = try TemporaryDirectory()
        let directory = data.url.appendingPathComponent("ingest-data")
        #expect(InstanceIdentity.current(service: "ingest", config: try config(directory)) == nil)
        let first = try InstanceIdentity.resolve(service: "ingest", config: try config(directory))
        #expect(Identifier.isValid(first))
        #expect(try InstanceIdentity.resolve(service: "ingest", config: try config(directory)) == first)
        #expect(InstanceIdentity.current(service: "ingest", config: try config(directory)) == first)
        let stored = try String(contentsOfFile: InstanceIdentity.file(service: "ingest", dataDirectory: directory.path), encoding: .utf8)
        #expect(stored.trimmingCharacters(in: .whitespacesAndNewlines) == first)
        let other = try InstanceIdentity.resolve(service: "ingest", config: try config(data.url.appendingPathComponent("other")))
        #expect(other != first)
    }

    @Test("GUARDIAN_INSTANCE_ID wins over the stored id; a stored id that breaks the id rule is refused")
    func explicitWins() throws {
        let data = try TemporaryDirectory()
        _ = try InstanceIdentity.resolve(service: "ingest", config: try config(data.url))
        #expect(try InstanceIdentity.resolve(service: "ingest", config: try config(data.url, instance: "r7")) == "r7")
        #expect(InstanceIdentity.current(service: "ingest", config: try config(data.url, instance: "r7")) == "r7")
        try "bad/id\n".write(toFile: InstanceIdentity.file(service: "geofence", dataDirectory: data.url.path), atomically: true, encoding: .utf8)
        #expect(throws: ConfigurationError.self) { try InstanceIdentity.resolve(service: "geofence", config: try config(data.url)) }
    }
}
