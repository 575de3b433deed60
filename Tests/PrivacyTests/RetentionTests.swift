import Foundation
import GuardianShared
import GuardianTestSupport
import Testing

@Suite("retention: every store prunes by age in the background", .serialized)
struct RetentionTests {
    @Test("a month later the raw data is gone everywhere; corrections and timelines stay a year, then their retained days go too")
    func pruneByAge() async throws {
        let clock = TestClock(Timestamp.now().rfc3339)
        let h = try await PrivacyHarness(extra: ["GUARDIAN_RETENTION_SWEEP_SECONDS": "0.2"], clock: clock.clock)
        try await h.start()
        try await storeADay(h)
        let shortLived = [
            ("ingest", "events"), ("geofence", "visits"), ("predictor", "budgets"), ("timeline", "events"),
            ("command-router", "usage"), ("command-router", "handledCommands"), ("notifier", "history"),
        ]
        let yearLong = [("timeline", "corrections"), ("timeline", "timelines")]
        for (service, kind) in shortLived + yearLong {
            #expect(h.counter(service, "pruned.\(kind)") == 0, "\(service) pruned \(kind) of today")
        }

        // Ingest prunes by the hour marks its sweeps leave: let every service sweep after the day is stored.
        let sweeps = PrivacyHarness.services.map { h.counter($0, "retentionSweeps") }
        for (service, before) in zip(PrivacyHarness.services, sweeps) {
            #expect(await h.eventually { h.counter(service, "retentionSweeps") >= before + 2 }, "\(service) sweeps")
        }
        clock.set(Timestamp.now().adding(seconds: 31 * 86400).rfc3339)
        for (service, kind) in shortLived {
            #expect(await h.eventually { h.counter(service, "pruned.\(kind)") > 0 }, "\(service) pruned its \(kind) after 31 days")
        }
        // The sweep counts before it truncates the write-ahead log: the files are clean a moment later.
        #expect(await h.eventually { h.occurrences(of: "\"roblox\"", in: "ingest") == 0 }, "the usage event is gone from ingest's files")
        for (service, kind) in yearLong {
            #expect(h.counter(service, "pruned.\(kind)") == 0, "\(service) keeps \(kind) for a year")
        }

        clock.set(Timestamp.now().adding(seconds: 366 * 86400).rfc3339)
        for (service, kind) in yearLong {
            #expect(await h.eventually { h.counter(service, "pruned.\(kind)") > 0 }, "\(service) pruned its \(kind) after a year")
        }
        // The sweep publishes the clears once its transaction commits: the broker has them a moment later.
        var days: [String]?
        let cleared = await h.eventually {
            days = try? await h.retainedMessages().map(\.topic).filter { $0.hasPrefix("guardian/timeline/") }
            return days == []
        }
        #expect(cleared, "the year-old days are no longer retained on the broker: \(days ?? [])")
        await h.shutdown()
    }

    @Test("each lifetime has a default and its own variable; a bad value is a clear error")
    func policyFromEnvironment() throws {
        let kinds = [RetentionPolicy.Kind("history", days: 30), RetentionPolicy.Kind("webhookJobs", days: 7)]
        let defaults = try RetentionPolicy(service: "notifier", kinds: kinds, settings: SettingsReader(environment: [:]))
        #expect(defaults.lifetimes == ["history": 30 * 86400, "webhookJobs": 7 * 86400])
        #expect(defaults.sweepInterval == 3600)
        #expect(RetentionPolicy.variable(service: "notifier", kind: "webhookJobs") == "GUARDIAN_NOTIFIER_RETENTION_WEBHOOK_JOBS_DAYS")
        #expect(RetentionPolicy.variable(service: "command-router", kind: "handledCommands") == "GUARDIAN_COMMAND_ROUTER_RETENTION_HANDLED_COMMANDS_DAYS")
        let changed = try RetentionPolicy(
            service: "notifier", kinds: kinds, settings: SettingsReader(environment: ["GUARDIAN_NOTIFIER_RETENTION_HISTORY_DAYS": "2", "GUARDIAN_RETENTION_SWEEP_SECONDS": "60"]))
        #expect(changed.lifetimes["history"] == 2 * 86400 && changed.sweepInterval == 60)
        let now = Timestamp(rfc3339: "2026-11-25T12:00:00Z")!
        #expect(changed.cutoffs(at: now)["history"] == Timestamp(rfc3339: "2026-11-23T12:00:00Z")!)
        for bad in ["0", "-1", "soon", "40000"] {
            #expect(throws: ConfigurationError.self) {
                try RetentionPolicy(service: "notifier", kinds: kinds, settings: SettingsReader(environment: ["GUARDIAN_NOTIFIER_RETENTION_HISTORY_DAYS": bad]))
            }
        }
    }
}
