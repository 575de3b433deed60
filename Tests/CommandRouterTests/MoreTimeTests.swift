import Foundation
@testable import GuardianCommandRouter
import GuardianShared
import Testing

/// `extend` is more time for the child: it never lengthens a block.
@Suite("More time on the current limit")
struct MoreTimeTests {
    let engine = PolicyEngine(timeZone: Fixtures.newYork)
    let start = Timestamp(Fixtures.date("2026-05-15 16:00"))

    func at(_ minutes: Double) -> Timestamp { start.adding(seconds: minutes * 60) }

    /// The rules after each command in turn, each given `minutes` after `start`.
    func apply(_ commands: [(minutes: Double, command: ParentCommand)]) throws -> [RestrictionRule] {
        var rules: [RestrictionRule] = []
        for (index, step) in commands.enumerated() {
            rules = try engine.apply(step.command, id: "c\(index)", now: at(step.minutes), to: rules).get()
        }
        return rules
    }

    func blocked(_ rules: [RestrictionRule], at minutes: Double) -> [String] {
        engine.restrictions(rules, at: at(minutes)).map { $0.kind + ":" + ($0.categories ?? $0.apps ?? ["everything"]).joined(separator: ",") }
    }

    @Test("during a block: the block is lifted for the extra time, then applies again until it ends")
    func duringABlock() throws {
        let rules = try apply([
            (0, try ParentCommand(action: .shutdown, durationSeconds: 7200, categories: [.games])),
            (30, try ParentCommand(action: .extend, durationSeconds: 600)),
        ])
        #expect(blocked(rules, at: 31) == [])
        #expect(blocked(rules, at: 39.9) == [])
        #expect(blocked(rules, at: 40.1) == ["shutdown:games"])
        #expect(blocked(rules, at: 119.9) == ["shutdown:games"])
        #expect(blocked(rules, at: 120.1) == [])
    }

    @Test("during an allowance for a while: the allowance ends that much later")
    func duringAnAllowance() throws {
        let rules = try apply([
            (0, try ParentCommand(action: .blockApp, apps: ["youtube"])),
            (10, try ParentCommand(action: .allow, durationSeconds: 1800, apps: ["youtube"])),
            (30, try ParentCommand(action: .extend, durationSeconds: 900, apps: ["youtube"])),
        ])
        #expect(blocked(rules, at: 5) == ["block_app:youtube"])
        #expect(blocked(rules, at: 50) == [])
        #expect(blocked(rules, at: 54.9) == [])
        #expect(blocked(rules, at: 55.1) == ["block_app:youtube"])
    }

    @Test("just before bedtime: bedtime begins that much later, then runs to its end")
    func beforeBedtime() throws {
        let bedtime = try ParentCommand(action: .schedule, schedule: .init(start: "21:00", end: "07:00", type: .bedtime, repeat: .daily))
        // 16:00 + 295 min = 20:55
        let rules = try apply([(0, bedtime), (295, try ParentCommand(action: .extend, durationSeconds: 600))])
        #expect(blocked(rules, at: 301) == [])
        #expect(blocked(rules, at: 309.9) == [])
        #expect(blocked(rules, at: 310.1) == ["bedtime:everything"])
        #expect(blocked(rules, at: 600) == ["bedtime:everything"])
    }

    @Test("until a time: the limit is lifted until then")
    func untilATime() throws {
        let until = RFC3339.format(Fixtures.date("2026-05-15 22:00"))
        let rules = try apply([
            (0, try ParentCommand(action: .schedule, schedule: .init(start: "21:00", end: "07:00", type: .bedtime, repeat: .daily))),
            (301, try ParentCommand(action: .extend, until: until)),
        ])
        #expect(blocked(rules, at: 330) == [])
        #expect(blocked(rules, at: 361) == ["bedtime:everything"])
        // Until a time before bedtime begins adds nothing: refused, not accepted for nothing.
        let early = RFC3339.format(Fixtures.date("2026-05-15 20:58"))
        #expect(throws: CommandRejection.self) {
            try apply([
                (0, try ParentCommand(action: .schedule, schedule: .init(start: "21:00", end: "07:00", type: .bedtime, repeat: .daily))),
                (295, try ParentCommand(action: .extend, until: early)),
            ])
        }
    }

    @Test("with nothing limiting the child, or only a block on everything for one app's time, there is no time to add")
    func nothingToExtend() throws {
        #expect(throws: CommandRejection.self) { try apply([(0, try ParentCommand(action: .extend, durationSeconds: 600))]) }
        // Bedtime more than an hour away is not the current limit.
        let bedtime = try ParentCommand(action: .schedule, schedule: .init(start: "21:00", end: "07:00", type: .bedtime, repeat: .daily))
        #expect(throws: CommandRejection.self) { try apply([(0, bedtime), (200, try ParentCommand(action: .extend, durationSeconds: 600))]) }
        // A block on games leaves no YouTube time to add.
        #expect(throws: CommandRejection.self) {
            try apply([(0, try ParentCommand(action: .shutdown, durationSeconds: 3600, categories: [.games])),
                       (1, try ParentCommand(action: .extend, durationSeconds: 600, apps: ["youtube"]))])
        }
        #expect(throws: CommandRejection.self) {
            try apply([(0, try ParentCommand(action: .shutdown, durationSeconds: 3600)),
                       (1, try ParentCommand(action: .extend, durationSeconds: 600, apps: ["youtube"]))])
        }
    }

    @Test("more time then bedtime: the extra time, then a bedtime from when it ends")
    func thenBedtime() throws {
        // 16:00 + 300 min = 21:00; the interpreter starts the bedtime when the extra time ends
        let rules = try apply([
            (0, try ParentCommand(action: .shutdown)),
            (300, try ParentCommand(action: .extend, durationSeconds: 900, schedule: .init(start: "21:15", end: "07:00", type: .bedtime))),
        ])
        #expect(blocked(rules, at: 310) == [])
        #expect(blocked(rules, at: 316).sorted() == ["bedtime:everything", "shutdown:everything"])
    }
}
