/// Options of an MQTT 5 subscription.
public struct MQTTSubscribeOptions: Sendable, Equatable {
    /// Do not receive our own publishes.
    public var noLocal: Bool
    /// Keep the retain flag as the publisher set it.
    public var retainAsPublished: Bool
    /// 0: send retained messages on subscribe, 1: only on a new subscription, 2: never.
    public var retainHandling: UInt8

    public init(noLocal: Bool = false, retainAsPublished: Bool = false, retainHandling: UInt8 = 0) {
        self.noLocal = noLocal
        self.retainAsPublished = retainAsPublished
        self.retainHandling = retainHandling
    }

    var rawValue: Int32 {
        (noLocal ? 0x04 : 0) | (retainAsPublished ? 0x08 : 0) | Int32(retainHandling & 0x03) << 4
    }
}

/// Messages of one subscription, as an `AsyncSequence`.
///
/// The broker acknowledges a QoS 1 message once it is buffered here; a service that must not
/// lose a message it was handed on a crash handles it synchronously instead (`MQTTClient.subscribe(_:qos:handler:)`).
public struct MQTTSubscription: AsyncSequence, Sendable {
    public typealias Element = MQTTMessage
    public let filter: String
    let stream: AsyncStream<MQTTMessage>

    public func makeAsyncIterator() -> AsyncStream<MQTTMessage>.Iterator { stream.makeAsyncIterator() }
}
