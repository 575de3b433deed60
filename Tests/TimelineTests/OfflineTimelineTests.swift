import Foundation
import GuardianShared
@testable import GuardianTimeline
import Testing

@Suite("offline builds")
struct OfflineTimelineTests {
    /// A line of ingest's normalised events (naming its device), or a device upload (`device == nil`).
    func line(_ device: String?, _ time: String, _ body: String) -> String {
        let header = device.map { #""id": "e-\#(UUID().uuidString.prefix(8))", "deviceId": "\#($0)", "receivedAt": "\#(time)", "# } ?? ""
        return "{\(header)\"ts\": \"\(time)\", \(body)}"
    }

    @Test("each device named in the file gets its own timeline under its own id")
    func severalDevices() throws {
        let lines = [
            line("anna-phone", "2026-11-18T06:00:00Z", #""lat": 48.85, "lon": 2.35"#),
            line("anna-phone", "2026-11-18T06:00:00Z", #""activity": "stationary""#),
            line("anna-phone", "2026-11-18T08:00:00Z", #""activity": "automotive""#),
            line("ben-phone", "2026-11-18T07:00:00Z", #""lat": 52.52, "lon": 13.40"#),
            line("ben-phone", "2026-11-18T07:00:00Z", #""activity": "walking""#),
            line("ben-phone", "2026-11-18T07:40:00Z", #""activity": "cycling""#),
            line("anna-phone", "2026-11-18T09:00:00Z", #""activity": "stationary""#),
            line("ben-phone", "2026-11-18T08:30:00Z", #""activity": "stationary""#),
            line("ben-phone", "2026-11-18T09:30:00Z", #""activity": "stationary""#),
            line("anna-phone", "2026-11-18T10:00:00Z", #""activity": "stationary""#),
        ]
        let reading = OfflineTimeline.read(jsonLines: Data(lines.joined(separator: "\n").utf8))
        #expect(reading.problems.isEmpty)
        #expect(reading.devices.map(\.deviceId) == ["anna-phone", "ben-phone"])
        #expect(reading.devices.map(\.motion.count) == [4, 4])
        let days = try OfflineTimeline.build(reading, timeZone: TimeZone(identifier: "UTC")!)
        #expect(Set(days.map(\.deviceId)) == ["anna-phone", "ben-phone"])
        let anna = try #require(days.first { $0.deviceId == "anna-phone" })
        let ben = try #require(days.first { $0.deviceId == "ben-phone" })
        #expect(anna.slots.map(\.activity).contains(.automotive) && !anna.slots.map(\.activity).contains(.cycling))
        #expect(ben.slots.map(\.activity).contains(.cycling) && !ben.slots.map(\.activity).contains(.automotive))
        #expect(anna.slots.first?.start == Timestamp(milliseconds: utc("2026-11-18 06:00:00")))
        #expect(ben.slots.first?.location == GeoPoint(lat: 52.52, lon: 13.40))
    }

    @Test("device uploads belong to the device given; a bad device id is a problem, not a timeline")
    func uploads() throws {
        let lines = [
            line(nil, "2026-11-18T06:00:00Z", #""activity": "stationary""#),
            line(nil, "2026-11-18T07:00:00Z", #""activity": "walking""#),
            line("no/slashes", "2026-11-18T07:30:00Z", #""activity": "walking""#),
        ]
        let reading = OfflineTimeline.read(jsonLines: Data(lines.joined(separator: "\n").utf8), deviceId: "kid-tablet")
        #expect(reading.devices.map(\.deviceId) == ["kid-tablet"])
        #expect(reading.problems.count == 1 && reading.problems[0].hasPrefix("line 3"))
        let days = try OfflineTimeline.build(reading, timeZone: TimeZone(identifier: "UTC")!)
        #expect(!days.isEmpty && days.allSatisfy { $0.deviceId == "kid-tablet" })
    }
}
