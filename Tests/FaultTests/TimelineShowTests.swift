import Foundation
import GuardianTestSupport
import Testing

/// `guardian timeline show` as a user runs it, against a real broker.
@Suite("guardian timeline show")
struct TimelineShowTests {
    @Test("lists a published day's slots; a day not published is said plainly (how to get one), not as a usage error")
    func publishedAndMissingDay() async throws {
        let guardian = try FaultHarness.guardianCLI()
        let broker = try TestBroker()
        let publisher = try await broker.connectedClient("timeline-stand-in")
        let day = #"""
            {"deviceId": "tablet-sam", "date": "2026-11-18", "timezone": "Europe/Paris", "generatedAt": "2026-11-18T21:00:00.000Z",
             "slots": [{"start": "2026-11-17T23:00:00.000Z", "end": "2026-11-18T06:30:00.000Z", "category": "sleep",
                        "confidence": 0.93, "activity": "stationary", "location": {"lat": 48.8566, "lon": 2.3522}, "edited": false}]}
            """#
        try await publisher.publish("guardian/timeline/tablet-sam/days/2026-11-18", payload: Data(day.utf8), retain: true)
        let environment = ["GUARDIAN_MQTT_URL": broker.url]

        let shown = try await CommandOutput.run(guardian, ["timeline", "show", "tablet-sam", "--date", "2026-11-18"], environment: environment)
        #expect(shown.status == 0, "\(shown.text)")
        // On the day's clock (Paris, UTC+1 in November), not UTC.
        #expect(shown.text.contains("tablet-sam 2026-11-18 (Europe/Paris)\n00:00-07:30  sleep  stationary  93%"), "\(shown.text)")

        let missing = try await CommandOutput.run(guardian, ["timeline", "show", "tablet-sam", "--date", "2026-11-19"], environment: environment)
        #expect(missing.status == 1, "exit status \(missing.status): \(missing.text)")
        #expect(missing.text.contains("no published day 2026-11-19 for tablet-sam"), "\(missing.text)")
        #expect(missing.text.contains("guardian/timeline/tablet-sam/generate"), "no word on how to get the day: \(missing.text)")
        #expect(!missing.text.contains("Usage:"), "reported as a usage error: \(missing.text)")

        // A date that is none (here an MQTT wildcard) is a usage error, before any subscription.
        let wildcard = try await CommandOutput.run(guardian, ["timeline", "show", "tablet-sam", "--date", "#"], environment: environment)
        #expect(wildcard.status == 64 && wildcard.text.contains("is not a date"), "\(wildcard.status): \(wildcard.text)")

        await publisher.shutdown()
        broker.stop()
    }
}
