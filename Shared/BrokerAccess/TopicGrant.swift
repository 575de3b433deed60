/// One topic filter an account may publish to, receive from, or both; or, with `allow` false, may
/// not, whatever a grant of lower `priority` says (the plugin checks higher priorities first).
public struct TopicGrant: Sendable, Hashable {
    public enum Access: Sendable, Hashable { case read, write, readWrite }

    public var access: Access
    public var filter: String
    public var allow: Bool
    public var priority: Int

    public init(_ access: Access, _ filter: String, allow: Bool = true, priority: Int = 0) {
        self.access = access
        self.filter = filter
        self.allow = allow
        self.priority = priority
    }

    /// The plugin's ACL entries for this grant (`publishClientReceive` for read, `publishClientSend` for write).
    public var entries: [DynamicSecurityACL] {
        let send = DynamicSecurityACL(type: .publishClientSend, topic: filter, priority: priority, allow: allow)
        let receive = DynamicSecurityACL(type: .publishClientReceive, topic: filter, priority: priority, allow: allow)
        // Subscriptions are not checked by default, but those to `$`-topics ($CONTROL, $SYS) are.
        let subscribe = filter.hasPrefix("$") ? [DynamicSecurityACL(type: .subscribePattern, topic: filter, priority: priority, allow: allow)] : []
        switch access {
        case .read: return [receive] + subscribe
        case .write: return [send]
        case .readWrite: return [send, receive] + subscribe
        }
    }
}

/// One ACL entry of the dynamic-security plugin, in its JSON shape.
public struct DynamicSecurityACL: Codable, Sendable, Hashable {
    public enum Kind: String, Codable, Sendable {
        case publishClientSend, publishClientReceive, subscribeLiteral, subscribePattern, unsubscribeLiteral, unsubscribePattern
    }

    public var acltype: Kind
    public var topic: String
    public var priority: Int
    public var allow: Bool

    public init(type: Kind, topic: String, priority: Int = 0, allow: Bool = true) {
        acltype = type
        self.topic = topic
        self.priority = priority
        self.allow = allow
    }
}
