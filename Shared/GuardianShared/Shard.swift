/// `GUARDIAN_SHARD=k/n`: this instance owns the devices whose FNV-1a hash of `deviceId` mod n is k.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    public var index: Int
    public var count: Int

    public init?(_ text: String) {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, k >= 0, k < n else { return nil }
        index = k
        count = n
    }

    public init(index: Int, count: Int) {
        precondition(count >= 1 && index >= 0 && index < count)
        self.index = index
        self.count = count
    }

    public func owns(deviceId: String) -> Bool {
        count == 1 || Int(Shard.fnv1a(deviceId) % UInt64(count)) == index
    }

    /// 64-bit FNV-1a over the UTF-8 bytes.
    public static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    public var description: String { "\(index)/\(count)" }
}
