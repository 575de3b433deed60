import Foundation

/// Quality of service of a publish or subscription.
public enum MQTTQoS: Int32, Sendable, Comparable {
    case atMostOnce = 0
    case atLeastOnce = 1
    case exactlyOnce = 2

    public static func < (lhs: MQTTQoS, rhs: MQTTQoS) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A message received from the broker (topic and payload copied out of libmosquitto).
public struct MQTTMessage: Sendable {
    public var topic: String
    public var payload: Data
    public var qos: MQTTQoS
    /// True when the broker sent it as a retained message (on subscribe).
    public var retain: Bool
    public var properties: MQTTProperties
    /// Identifiers of the local subscriptions it matched.
    public var subscriptionIdentifiers: [UInt32]

    public init(
        topic: String, payload: Data, qos: MQTTQoS = .atLeastOnce, retain: Bool = false,
        properties: MQTTProperties = MQTTProperties(), subscriptionIdentifiers: [UInt32] = []
    ) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retain = retain
        self.properties = properties
        self.subscriptionIdentifiers = subscriptionIdentifiers
    }

    /// Topic levels, split on `/`.
    public var topicLevels: [Substring] { topic.split(separator: "/", omittingEmptySubsequences: false) }
}

/// A message to publish.
public struct MQTTOutgoing: Sendable {
    public var topic: String
    public var payload: Data
    public var qos: MQTTQoS
    public var retain: Bool
    public var properties: MQTTProperties

    public init(
        topic: String, payload: Data, qos: MQTTQoS = .atLeastOnce, retain: Bool = false,
        properties: MQTTProperties = MQTTProperties()
    ) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retain = retain
        self.properties = properties
    }
}
