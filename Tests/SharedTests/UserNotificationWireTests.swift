import Foundation
import GuardianShared
import Testing

@Suite("Notifications written directly are the bytes JSONEncoder writes")
struct UserNotificationWireTests {
    static let samples: [UserNotification] = [
        UserNotification(
            id: "nudge-p1", ts: Timestamp(rfc3339: "2026-11-22T06:10:22.5Z")!, kind: .spendingNudge,
            title: "You're near Tech Store", body: "82% chance you'd regret a purchase here", priority: .high,
            data: [
                "deviceId": .string("phone-alice"), "zoneId": .string("z1"), "probability": .number(0.8234567),
                "riskLevel": .string("high"), "merchant": .string("Tech Store"),
            ]),
        UserNotification(
            id: "status-x-1", ts: Timestamp(rfc3339: "2026-01-01T00:00:00Z")!, kind: .status,
            title: "Quotes \" and \\ backslashes / slashes", body: "tab\there, newline\nthere, bell \u{07}, é, 漢字, 🙂", priority: .normal,
            data: ["ok": .bool(true), "none": .null, "count": .number(82), "negative": .number(-3), "small": .number(1e-05),
                   "large": .number(1.5e20), "list": .array([.number(1), .string("two"), .object(["b": .bool(false), "a": .number(0.25)])])]),
        UserNotification(id: "w", ts: .now(), kind: .warning, title: "", body: "", priority: .low, data: [:]),
    ]

    @Test(arguments: samples)
    func sameBytes(_ notification: UserNotification) throws {
        let direct = notification.wirePayload
        #expect(String(decoding: direct, as: UTF8.self) == String(decoding: GuardianJSON.encode(notification), as: UTF8.self))
        #expect(try JSONDecoder().decode(UserNotification.self, from: direct) == notification)
    }
}

@Suite("Locations written directly are the bytes JSONEncoder writes (event ids hash them)")
struct LocationWireTests {
    static let samples: [Location] = [
        Location(lat: 48.8566, lon: 2.3522),
        Location(lat: -33.5, lon: 151, acc: 12, alt: 35.25, speed: 1.3, course: 359.9),
        Location(lat: 0, lon: -180, acc: 0, alt: -12.125, speed: 0, course: 0, ownTracks: OwnTracksOrigin(user: "alice", device: "phone-1")),
        Location(lat: 89.999999, lon: 179.123456789, acc: 1e-05, speed: 123456.75),
    ]

    @Test(arguments: samples)
    func sameBytes(_ location: Location) throws {
        let direct = try #require(location.wireJSON)
        #expect(String(decoding: direct, as: UTF8.self) == String(decoding: GuardianJSON.encode(location), as: UTF8.self))
    }
}
