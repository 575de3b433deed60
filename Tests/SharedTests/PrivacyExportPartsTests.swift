import Foundation
import GuardianShared
import Testing

@Suite("an export too large for one message")
struct PrivacyExportPartsTests {
    static func export(events: Int) -> PrivacyExport {
        let items = (0..<events).map { i in
            JSONObject.object(["id": .string("e\(i)"), "deviceId": .string("tablet-sam"), "lat": .number(48.85 + Double(i) / 1e6)])
        }
        return PrivacyExport(
            requestId: "r1", deviceId: "tablet-sam", service: "ingest", ts: Timestamp(secondsSinceEpoch: 1_795_000_000),
            data: ["events": .array(items), "profile": .object(["timezone": .string("Europe/Paris")]), "empty": .array([])])
    }

    @Test("fits: one message, unnumbered")
    func fits() {
        let whole = Self.export(events: 10)
        #expect(whole.split(maxBytes: 1 << 20) == [whole])
        #expect(PrivacyExport.joined([whole]) == whole)
    }

    @Test("too large: numbered parts, each within the limit, that join back to the whole in any order")
    func splitsAndJoins() throws {
        let whole = Self.export(events: 5_000)
        let limit = 16 * 1024
        let parts = whole.split(maxBytes: limit)
        #expect(parts.count > 10)
        for (index, part) in parts.enumerated() {
            #expect(part.part == index + 1 && part.parts == parts.count)
            #expect(GuardianJSON.encode(part).count <= limit, "part \(index + 1) is \(GuardianJSON.encode(part).count) bytes")
        }
        #expect(PrivacyExport.joined(parts.shuffled()) == whole)
        #expect(PrivacyExport.joined(Array(parts.dropLast())) == nil, "a missing part must not pass for the whole")
        // Through JSON, as the CLI receives them.
        let decoded = try parts.map { try JSONDecoder().decode(PrivacyExport.self, from: GuardianJSON.encode($0)) }
        #expect(PrivacyExport.joined(decoded)?.data == whole.data)
    }
}
