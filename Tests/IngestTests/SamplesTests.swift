import Foundation
@testable import GuardianIngest
import GuardianShared
import GuardianTestSupport
import MQTT
import Testing

/// The payloads in samples/ are sent as their README says, and accepted.
@Suite("samples/ over a real mosquitto")
struct SamplesTests {
    static func sample(_ name: String) throws -> Data { try Data(contentsOf: TestBroker.repositoryRoot.appendingPathComponent("samples/\(name)")) }

    @Test("every device sample is accepted by ingest under the broker's ACL, with no error")
    func deviceSamples() async throws {
        let h = try await IngestHarness(access: .secured)
        let phone = try await h.device("phone-alice")
        let owntracks = try await h.device("alice")
        try await phone.publish("guardian/devices/phone-alice/location", payload: try Self.sample("location.json"))
        try await phone.publish("guardian/devices/phone-alice/location", payload: try Self.sample("batch.json"))
        try await phone.publish("guardian/devices/phone-alice/snapshot", payload: try Self.sample("snapshot.json"))
        try await phone.publish("guardian/devices/phone-alice/profile", payload: try Self.sample("profile.json"), retain: true)
        try await owntracks.publish("owntracks/alice/iphone", payload: try Self.sample("owntracks-location.json"))
        try await owntracks.publish("owntracks/alice/iphone/event", payload: try Self.sample("owntracks-transition.json"))
        // 1 + 3 + 4 (snapshot parts) + 1 profile + 3 (OwnTracks location, state, motion) + 1 transition
        #expect(await h.events.wait(for: 13).count == 13)
        #expect(await h.errors.settle().isEmpty)
        await phone.shutdown()
        await owntracks.shutdown()
        await h.shutdown()
    }

    @Test("the other samples decode as the contract's types")
    func otherSamples() throws {
        let decoder = JSONDecoder()
        #expect(try ZoneFile.zones(from: try Self.sample("zones.json")).count == 5)
        #expect(try decoder.decode(Family.self, from: try Self.sample("family.json")).children.first?.name == "Sam")
        #expect(try decoder.decode(UserPreferences.self, from: try Self.sample("preferences.json")).maxNudgesPerHour == 3)
        let lines = String(decoding: try Self.sample("day.jsonl"), as: UTF8.self).split(separator: "\n")
        for line in lines {
            struct Timed: Decodable { var ts: Timestamp }
            #expect(throws: Never.self) { try decoder.decode(Timed.self, from: Data(line.utf8)) }
            if line.contains("activity") {
                #expect(throws: Never.self) { try decoder.decode(Motion.self, from: Data(line.utf8)) }
            } else {
                #expect(throws: Never.self) { try decoder.decode(Location.self, from: Data(line.utf8)) }
            }
        }
    }
}
