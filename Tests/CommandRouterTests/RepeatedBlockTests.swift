import Foundation
@testable import GuardianCommandRouter
import GuardianShared
import Testing

/// A parent who asks again for a block already in force gets one block, never an earlier end; a
/// block asked for during an allowance applies at once.
@Suite("A block asked for again")
struct RepeatedBlockTests {
    let times = MoreTimeTests()

    @Test("the same block twice: one restriction, ending at the later end")
    func sameBlockTwice() throws {
        let games = try ParentCommand(action: .shutdown, durationSeconds: 7200, categories: [.games])
        let rules = try times.apply([(0, games), (30, games)])
        #expect(rules.count == 1 && rules.first?.commandId == "c1")
        #expect(times.engine.restrictions(rules, at: times.at(31)).count == 1)
        #expect(times.blocked(rules, at: 149.9) == ["shutdown:games"])
        #expect(times.blocked(rules, at: 150.1) == [])
    }

    @Test("a shorter block of the same games while a longer one runs: still one block, and it is not lifted sooner")
    func shorterBlockKeepsTheLongerEnd() throws {
        let rules = try times.apply([
            (0, try ParentCommand(action: .shutdown, durationSeconds: 7200, categories: [.games])),
            (30, try ParentCommand(action: .shutdown, durationSeconds: 600, categories: [.games])),
        ])
        #expect(rules.count == 1 && rules.first?.commandId == "c1")
        #expect(times.blocked(rules, at: 119.9) == ["shutdown:games"])
        #expect(times.blocked(rules, at: 120.1) == [])
    }

    @Test("a timed block, then an open one of the same app: blocked until lifted")
    func openBlockReplacesTimedOne() throws {
        let rules = try times.apply([
            (0, try ParentCommand(action: .blockApp, durationSeconds: 600, apps: ["youtube"])),
            (5, try ParentCommand(action: .blockApp, apps: ["youtube"])),
        ])
        #expect(rules.count == 1 && rules.first?.until == nil)
        #expect(times.blocked(rules, at: 600) == ["block_app:youtube"])
    }

    @Test("blocks of other apps, or of the same app as a different kind, stay side by side")
    func differentBlocksStay() throws {
        let rules = try times.apply([
            (0, try ParentCommand(action: .blockApp, apps: ["youtube"])),
            (1, try ParentCommand(action: .blockApp, durationSeconds: 600, apps: ["tiktok"])),
            (2, try ParentCommand(action: .shutdown, durationSeconds: 600, categories: [.games])),
            (3, try ParentCommand(action: .blockApp, durationSeconds: 600, apps: ["youtube"])),
        ])
        #expect(Set(times.blocked(rules, at: 4)) == ["block_app:youtube", "block_app:tiktok", "shutdown:games"])
        // YouTube's open block outlasts the ten minutes asked again: one rule, still open.
        #expect(rules.filter { $0.apps == ["youtube"] }.map(\.until) == [nil])
        #expect(times.blocked(rules, at: 20) == ["block_app:youtube"])
    }

    @Test("a block asked for during an allowance for a while applies at once: the parent's latest word")
    func blockDuringAnAllowance() throws {
        let rules = try times.apply([
            (0, try ParentCommand(action: .allow, durationSeconds: 1800, categories: [.games])),
            (5, try ParentCommand(action: .shutdown, durationSeconds: 3600, categories: [.games])),
        ])
        #expect(times.blocked(rules, at: 6) == ["shutdown:games"])
        #expect(times.blocked(rules, at: 64.9) == ["shutdown:games"])
        // An allowance given after a block still lifts it for its while.
        let lifted = try times.apply([
            (0, try ParentCommand(action: .shutdown, durationSeconds: 3600, categories: [.games])),
            (5, try ParentCommand(action: .allow, durationSeconds: 1800, categories: [.games])),
        ])
        #expect(times.blocked(lifted, at: 6) == [])
        #expect(times.blocked(lifted, at: 35.1) == ["shutdown:games"])
        // The same block asked again during that allowance applies at once too.
        let again = try times.apply([
            (0, try ParentCommand(action: .shutdown, durationSeconds: 3600, categories: [.games])),
            (5, try ParentCommand(action: .allow, durationSeconds: 1800, categories: [.games])),
            (10, try ParentCommand(action: .shutdown, durationSeconds: 600, categories: [.games])),
        ])
        #expect(times.blocked(again, at: 11) == ["shutdown:games"])
        #expect(times.blocked(again, at: 59.9) == ["shutdown:games"])
    }
}
