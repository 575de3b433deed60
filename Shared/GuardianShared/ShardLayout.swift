/// The instances of a sharded service as their presence describes them, and the layout they follow
/// while `GUARDIAN_SHARD` changes: that of the instance started last. Restarting one instance with a
/// new `k/n` moves the whole service to `n` shards; an instance whose index is not below `n` owns nothing.
public struct ShardLayout: Sendable, Equatable {
    /// One instance, from its retained presence.
    public struct Member: Sendable, Equatable {
        public var shard: Shard
        public var startedAt: Timestamp
        public var online: Bool
        /// The shard count the instance follows, and how many devices it handed off that their new
        /// owner has not yet taken in (its `shardLayout` and `handoffPending` stats).
        public var follows: Int?
        public var pending: Int?

        public init(shard: Shard, startedAt: Timestamp, online: Bool, follows: Int? = nil, pending: Int? = nil) {
            self.shard = shard
            self.startedAt = startedAt
            self.online = online
            self.follows = follows
            self.pending = pending
        }

        /// Reads a presence; an instance that does not say its shard is `0/1`.
        public init(_ presence: Presence) {
            self.init(
                shard: presence.shard.flatMap(Shard.init) ?? Shard(index: 0, count: 1), startedAt: presence.startedAt,
                online: presence.status == .online, follows: presence.stats[ShardLayout.followsStat],
                pending: presence.stats[ShardLayout.pendingStat])
        }
    }

    public static let followsStat = "shardLayout"
    public static let pendingStat = "handoffPending"
    public static let ownsNothingStat = "ownsNothing"

    /// Every other instance of the service, by instance id.
    public var peers: [String: Member] = [:]

    public init() {}

    /// The shard count of the instance started last among `me` and the peers (ties: the greater id).
    public func count(me: (id: String, member: Member)) -> Int {
        var newest = me
        for (id, peer) in peers where (peer.startedAt, id) > (newest.member.startedAt, newest.id) { newest = (id, peer) }
        return newest.member.shard.count
    }

    /// What `shard` owns under a layout of `count` shards: nil when its index is not below `count`.
    public static func owned(by shard: Shard, count: Int) -> Shard? {
        shard.index < count ? Shard(index: shard.index, count: count) : nil
    }

    /// Whether every online peer follows `count` shards and has nothing left to hand off: no state
    /// is on its way any more.
    public func settled(at count: Int) -> Bool {
        peers.values.allSatisfy { !$0.online || ($0.follows == count && $0.pending == 0) }
    }
}
