import Foundation
import GuardianShared
import Testing

@Suite("Shard layout: the instance started last sets the shard count")
struct ShardLayoutTests {
    static func member(_ shard: String, at seconds: Int, online: Bool = true, follows: Int? = nil, pending: Int? = nil) -> ShardLayout.Member {
        ShardLayout.Member(
            shard: Shard(shard)!, startedAt: Timestamp(milliseconds: 1_795_000_000_000 + Int64(seconds) * 1000), online: online, follows: follows,
            pending: pending)
    }

    @Test("1 → 2 → 1: the newest instance's count wins, online or not; an index beyond it owns nothing")
    func newestWins() {
        var layout = ShardLayout()
        layout.peers["g0"] = Self.member("0/1", at: 0)
        let g1 = (id: "g1", member: Self.member("1/2", at: 10))
        #expect(layout.count(me: g1) == 2)
        layout.peers = ["g1": g1.member]
        #expect(layout.count(me: ("g0", Self.member("0/1", at: 0))) == 2)
        #expect(ShardLayout.owned(by: Shard("0/1")!, count: 2) == Shard("0/2"))
        // g0 restarted as 0/1: newest, so g1 owns nothing, even after g1's will says it is offline.
        layout.peers = ["g0": Self.member("0/1", at: 20)]
        #expect(layout.count(me: g1) == 1)
        #expect(ShardLayout.owned(by: g1.member.shard, count: 1) == nil)
        layout.peers = ["g1": Self.member("1/2", at: 10, online: false)]
        #expect(layout.count(me: ("g0", Self.member("0/1", at: 20))) == 1)
        // Started in the same millisecond: the greater id decides, the same way everywhere.
        layout.peers = ["b": Self.member("1/3", at: 5)]
        #expect(layout.count(me: ("a", Self.member("0/2", at: 5))) == 3)
    }

    @Test("settled once every online peer follows the count and has nothing left to hand off")
    func settled() {
        var layout = ShardLayout()
        layout.peers["g0"] = Self.member("0/1", at: 0, follows: 1, pending: 0)
        #expect(!layout.settled(at: 2))
        layout.peers["g0"] = Self.member("0/1", at: 0, follows: 2, pending: 7)
        #expect(!layout.settled(at: 2))
        layout.peers["g0"] = Self.member("0/1", at: 0, follows: 2, pending: 0)
        layout.peers["gone"] = Self.member("1/3", at: 0, online: false)
        #expect(layout.settled(at: 2))
    }

    @Test("a presence without shard is 0/1; its stats give what it follows")
    func fromPresence() {
        let presence = Presence(
            status: .online, ts: .now(), version: "0.1.0", startedAt: Timestamp(milliseconds: 1_795_000_000_000),
            stats: [ShardLayout.followsStat: 2, ShardLayout.pendingStat: 3])
        let member = ShardLayout.Member(presence)
        #expect(member.shard == Shard("0/1") && member.follows == 2 && member.pending == 3 && member.online)
    }
}
