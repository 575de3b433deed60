import Foundation

/// The MQTT 5 properties Guardian uses on PUBLISH.
public struct MQTTProperties: Sendable, Equatable {
    public var responseTopic: String?
    public var correlationData: Data?
    public var contentType: String?
    public var messageExpirySeconds: UInt32?
    public var userProperties: [(String, String)]

    public init(
        responseTopic: String? = nil, correlationData: Data? = nil, contentType: String? = nil,
        messageExpirySeconds: UInt32? = nil, userProperties: [(String, String)] = []
    ) {
        self.responseTopic = responseTopic
        self.correlationData = correlationData
        self.contentType = contentType
        self.messageExpirySeconds = messageExpirySeconds
        self.userProperties = userProperties
    }

    /// The first user property with this name.
    public func userProperty(_ name: String) -> String? {
        userProperties.first { $0.0 == name }?.1
    }

    public static func == (lhs: MQTTProperties, rhs: MQTTProperties) -> Bool {
        lhs.responseTopic == rhs.responseTopic && lhs.correlationData == rhs.correlationData
            && lhs.contentType == rhs.contentType && lhs.messageExpirySeconds == rhs.messageExpirySeconds
            && lhs.userProperties.elementsEqual(rhs.userProperties, by: { $0 == $1 })
    }
}
