import CMosquitto

/// An MQTT failure, carrying libmosquitto's error or the broker's reason code where there is one.
public enum MQTTError: Error, Equatable, CustomStringConvertible {
    /// A libmosquitto call failed; `code` is its `MOSQ_ERR_*` value.
    case library(operation: String, code: Int32)
    /// The broker refused the connection (CONNACK reason code).
    case connectionRefused(reasonCode: Int32)
    /// The broker refused a subscription (SUBACK reason code).
    case subscriptionRefused(filter: String, reasonCode: Int32)
    /// The broker refused a publish (PUBACK reason code ≥ 0x80, e.g. not authorised).
    case publishRefused(topic: String, reasonCode: Int32)
    /// The configuration cannot be used (bad URL, bad option).
    case invalidConfiguration(String)
    /// A topic or filter is not valid MQTT.
    case invalidTopic(String)
    /// The operation did not complete in time.
    case timeout(operation: String)
    /// The client was shut down before the operation completed.
    case shutDown

    public var description: String {
        switch self {
        case .library(let op, let code):
            return "\(op) failed: \(String(cString: mosquitto_strerror(code))) (MOSQ_ERR \(code))"
        case .connectionRefused(let rc):
            return "broker refused the connection: \(String(cString: mosquitto_reason_string(rc))) (reason \(rc))"
        case .subscriptionRefused(let filter, let rc):
            return "broker refused subscription to \(filter): \(String(cString: mosquitto_reason_string(rc))) (reason \(rc))"
        case .publishRefused(let topic, let rc):
            return "broker refused publish to \(topic): \(String(cString: mosquitto_reason_string(rc))) (reason \(rc))"
        case .invalidConfiguration(let why): return "invalid MQTT configuration: \(why)"
        case .invalidTopic(let topic): return "invalid MQTT topic or filter: \(topic)"
        case .timeout(let op): return "\(op) timed out"
        case .shutDown: return "MQTT client was shut down"
        }
    }

    static func check(_ rc: Int32, _ operation: String) throws(MQTTError) {
        if rc != Int32(MOSQ_ERR_SUCCESS.rawValue) { throw .library(operation: operation, code: rc) }
    }
}
