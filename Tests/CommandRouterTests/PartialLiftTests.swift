import Foundation
@testable import GuardianCommandRouter
import GuardianShared
import Testing

/// Lifting one app of a block that names several lifts that app only: "unblock YouTube" after
/// "block TikTok and YouTube" leaves TikTok blocked.
@Suite("Lifting part of a block")
struct PartialLiftTests {
    let times = MoreTimeTests()

    @Test("an open allowance of one app of a block on two: the other stays blocked")
    func openAllowanceKeepsTheRest() throws {
        let rules = try times.apply([
            (0, try ParentCommand(action: .blockApp, apps: ["tiktok", "youtube"])),
            (5, try ParentCommand(action: .allow, apps: ["youtube"])),
        ])
        #expect(times.blocked(rules, at: 6) == ["block_app:tiktok"])
        #expect(rules.count == 1 && rules.first?.commandId == "c0")
    }

    @Test("a timed allowance of one app: the other stays blocked meanwhile, both after it ends")
    func timedAllowanceKeepsTheRest() throws {
        let rules = try times.apply([
            (0, try ParentCommand(action: .blockApp, apps: ["tiktok", "youtube"])),
            (5, try ParentCommand(action: .allow, durationSeconds: 600, apps: ["youtube"])),
        ])
        #expect(times.blocked(rules, at: 6) == ["block_app:tiktok"])
        #expect(times.blocked(rules, at: 16) == ["block_app:tiktok,youtube"])
    }

    @Test("apps and categories of one block: allowing a category keeps the apps blocked; allowing everything lifts it all")
    func categoriesAndEverything() throws {
        let block = try ParentCommand(action: .shutdown, apps: ["tiktok"], categories: [.games, .video])
        let games = try times.apply([(0, block), (5, try ParentCommand(action: .allow, categories: [.games]))])
        let rest = try #require(times.engine.restrictions(games, at: times.at(6)).first)
        #expect(rest.apps == ["tiktok"] && rest.categories == ["video"])
        let all = try times.apply([(0, block), (5, try ParentCommand(action: .allow))])
        #expect(times.blocked(all, at: 6).isEmpty)
    }
}
