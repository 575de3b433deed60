import Foundation
import Logging
import MQTT

/// Sends what a parent asks for (a command, an activity request) on a connection of its own that
/// never reconnects, made for that one message: the broker acknowledges it, or the message is
/// dropped with its connection. Never queued to go out once the broker is back, after the
/// assistant has told the parent it failed.
struct CommandPublisher: Sendable {
    /// The bridge's connection settings; each message gets a client id of its own.
    let configuration: MQTTConfiguration
    /// How long to wait for the connection and for the broker's acknowledgement.
    let limit: Duration
    let logger: Logger

    init(configuration: MQTTConfiguration, limit: Duration, logger: Logger) {
        var configuration = configuration
        configuration.cleanStart = true
        configuration.sessionExpirySeconds = 0
        configuration.will = nil
        configuration.reconnects = false
        configuration.acknowledgesAfterPublishing = false
        self.configuration = configuration
        self.limit = limit
        self.logger = logger
    }

    /// Publishes `message` (QoS 1) and returns once the broker acknowledged it. Throws
    /// `.brokerUnreachable` when the broker cannot be reached or did not acknowledge it: nothing
    /// will be sent later.
    func publish(_ message: MQTTOutgoing) async throws(BridgeError) {
        var configuration = configuration
        configuration.clientId = "\(configuration.clientId)-send-\(UUID().uuidString.prefix(8).lowercased())"
        let client: MQTTClient
        do {
            client = try MQTTClient(configuration: configuration, logger: logger)
        } catch {
            throw .brokerUnreachable("\(error); nothing was sent")
        }
        do {
            try await client.connect(timeout: limit)
        } catch {
            logger.warning("cannot connect to send", metadata: ["mqtt.topic": "\(message.topic)", "mqtt.error": "\(error)"])
            // A connection attempt still under way (a broker that does not answer) ends in the background.
            Task { await client.shutdown(flushTimeout: .zero) }
            if case .connectionRefused = error { throw .brokerUnreachable("it refused guardian-mcp's credentials (\(error)); nothing was sent") }
            throw .brokerUnreachable("cannot connect to \(configuration.host):\(configuration.port); nothing was sent")
        }
        let unconfirmed = BridgeError.brokerUnreachable(
            "the connection was lost before the broker confirmed it received the request; it was withdrawn and will not be sent later")
        do throws(BridgeError) {
            try await whileConnected({ !client.hasEnded }, limit: limit, lost: unconfirmed, late: unconfirmed) {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    client.publish(message) { continuation.resume(with: $0) }
                }
            }
        } catch {
            Task { await client.shutdown(flushTimeout: .zero) }
            throw error
        }
        await client.shutdown(flushTimeout: .zero)
    }
}
