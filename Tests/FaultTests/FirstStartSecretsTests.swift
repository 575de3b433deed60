import BrokerAccess
import Foundation
import GuardianTestSupport
import Testing

/// Nothing in git is a working credential: a first start generates them, and later starts reuse them.
@Suite("secrets generated on first start")
struct FirstStartSecretsTests {
    static let accounts = ["admin"] + AccessRole.serviceNames

    @Test("a first start generates a distinct strong password per account, private files, hashes only in the broker's file; a second start keeps them")
    func firstStartGeneratesSecrets() throws {
        let folder = try TemporaryDirectory()
        let secrets = BrokerSecrets(directory: folder.url.appendingPathComponent("secrets"))
        let securityFile = folder.url.appendingPathComponent("security/dynamic-security.json").path
        #expect(try secrets.initialise(securityFile: securityFile, extra: BrokerAccount.generatedSamples()))

        let passwords = Self.accounts.map { secrets.password(for: $0) }
        #expect(passwords.allSatisfy { ($0?.count ?? 0) >= 24 }, "\(passwords)")
        #expect(Set(passwords.compactMap { $0 }).count == Self.accounts.count, "two accounts share a password")
        #expect(secrets.password(for: "phone-alice") != nil && secrets.password(for: "nobody") == nil)
        for account in Self.accounts {
            let mode = try FileManager.default.attributesOfItem(atPath: secrets.directory.appendingPathComponent(account).path)[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(account): mode \(String(mode ?? 0, radix: 8))")
        }
        let file = try String(contentsOfFile: securityFile, encoding: .utf8)
        #expect(try FileManager.default.attributesOfItem(atPath: securityFile)[.posixPermissions] as? Int == 0o600)
        for password in passwords.compactMap({ $0 }) { #expect(!file.contains(password), "a plain password in the broker's file") }
        for account in Self.accounts { #expect(file.contains("\"username\" : \"\(account)\"")) }

        // Second start: nothing changes.
        #expect(try !secrets.initialise(securityFile: securityFile))
        #expect(Self.accounts.map { secrets.password(for: $0) } == passwords)
        #expect(try String(contentsOfFile: securityFile, encoding: .utf8) == file)
    }

    @Test("the repository holds no password: no credentials or password file, no default secret in compose")
    func noSecretInTheRepository() throws {
        let root = TestBroker.repositoryRoot
        for path in ["broker-config/credentials.txt", "broker-config/passwd"] {
            #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path), "\(path) exists")
        }
        let compose = try String(contentsOf: root.appendingPathComponent("compose/docker-compose.yml"), encoding: .utf8)
        let lines = compose.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.hasPrefix("#") }
        #expect(!lines.contains { $0.contains("GUARDIAN_MQTT_PASSWORD:") }, "a password set in compose")
        #expect(!lines.contains { $0.range(of: #"PASSWORD[A-Z_]*:-"#, options: .regularExpression) != nil }, "a default password in compose")
        // Each service reads its own generated password from the secrets volume.
        for service in ["ingest", "geofence", "timeline", "predictor", "notifier", "command-router"] {
            #expect(lines.contains("GUARDIAN_MQTT_USERNAME: \(service)"), "compose \(service) user")
            #expect(lines.contains("GUARDIAN_MQTT_PASSWORD_FILE: /run/guardian/secrets/\(service)"), "compose \(service) password file")
        }
        // Only the TLS port is published to the outside.
        #expect(lines.contains { $0.contains(":8883\"") } && !lines.contains { $0.contains(":1883\"") })
    }
}
