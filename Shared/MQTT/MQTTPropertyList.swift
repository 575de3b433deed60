import CMosquitto
import Foundation

/// A libmosquitto property list built from Swift values; free it after the call that uses it.
struct MQTTPropertyList {
    var list: OpaquePointer?

    init() {}

    init(_ properties: MQTTProperties) throws(MQTTError) {
        if let topic = properties.responseTopic {
            try add(mosquitto_property_add_string(&list, id(MQTT_PROP_RESPONSE_TOPIC), topic), "response topic")
        }
        if let data = properties.correlationData {
            guard data.count <= Int(UInt16.max) else { throw .invalidConfiguration("correlation data over 65535 bytes") }
            let rc = data.withUnsafeBytes { mosquitto_property_add_binary(&list, id(MQTT_PROP_CORRELATION_DATA), $0.baseAddress, UInt16($0.count)) }
            try add(rc, "correlation data")
        }
        if let type = properties.contentType {
            try add(mosquitto_property_add_string(&list, id(MQTT_PROP_CONTENT_TYPE), type), "content type")
        }
        if let expiry = properties.messageExpirySeconds {
            try add(mosquitto_property_add_int32(&list, id(MQTT_PROP_MESSAGE_EXPIRY_INTERVAL), expiry), "message expiry")
        }
        for (name, value) in properties.userProperties {
            try add(mosquitto_property_add_string_pair(&list, id(MQTT_PROP_USER_PROPERTY), name, value), "user property")
        }
    }

    static func connect(sessionExpiry: UInt32) throws(MQTTError) -> MQTTPropertyList {
        var props = MQTTPropertyList()
        try props.add(mosquitto_property_add_int32(&props.list, id(MQTT_PROP_SESSION_EXPIRY_INTERVAL), sessionExpiry), "session expiry")
        return props
    }

    static func disconnect(sessionExpiry: UInt32) throws(MQTTError) -> MQTTPropertyList {
        var props = MQTTPropertyList()
        try props.add(mosquitto_property_add_int32(&props.list, id(MQTT_PROP_SESSION_EXPIRY_INTERVAL), sessionExpiry), "session expiry")
        return props
    }

    static func subscription(identifier: UInt32) throws(MQTTError) -> MQTTPropertyList {
        var props = MQTTPropertyList()
        try props.add(mosquitto_property_add_varint(&props.list, id(MQTT_PROP_SUBSCRIPTION_IDENTIFIER), identifier), "subscription identifier")
        return props
    }

    private mutating func add(_ rc: Int32, _ what: String) throws(MQTTError) {
        if rc != Int32(MOSQ_ERR_SUCCESS.rawValue) {
            free()
            throw .library(operation: "add MQTT property \(what)", code: rc)
        }
    }

    mutating func free() {
        if list != nil { mosquitto_property_free_all(&list) }
        list = nil
    }

    /// Forgets the list without freeing it (ownership passed to libmosquitto).
    mutating func release() { list = nil }

    /// Reads the properties Guardian uses from a received message.
    static func read(_ list: OpaquePointer?) -> (MQTTProperties, [UInt32]) {
        var properties = MQTTProperties()
        var identifiers: [UInt32] = []
        var current = list
        while let property = current {
            let identifier = mosquitto_property_identifier(property)
            switch identifier {
            case id(MQTT_PROP_RESPONSE_TOPIC):
                properties.responseTopic = readString(property, identifier)
            case id(MQTT_PROP_CONTENT_TYPE):
                properties.contentType = readString(property, identifier)
            case id(MQTT_PROP_CORRELATION_DATA):
                var value: UnsafeMutableRawPointer?
                var length: UInt16 = 0
                if mosquitto_property_read_binary(property, identifier, &value, &length, false) != nil, let value {
                    properties.correlationData = Data(bytes: value, count: Int(length))
                    Foundation.free(value)
                }
            case id(MQTT_PROP_MESSAGE_EXPIRY_INTERVAL):
                var value: UInt32 = 0
                if mosquitto_property_read_int32(property, identifier, &value, false) != nil {
                    properties.messageExpirySeconds = value
                }
            case id(MQTT_PROP_USER_PROPERTY):
                var name: UnsafeMutablePointer<CChar>?
                var value: UnsafeMutablePointer<CChar>?
                if mosquitto_property_read_string_pair(property, identifier, &name, &value, false) != nil, let name, let value {
                    properties.userProperties.append((String(cString: name), String(cString: value)))
                }
                Foundation.free(name)
                Foundation.free(value)
            case id(MQTT_PROP_SUBSCRIPTION_IDENTIFIER):
                var value: UInt32 = 0
                if mosquitto_property_read_varint(property, identifier, &value, false) != nil {
                    identifiers.append(value)
                }
            default:
                break
            }
            current = mosquitto_property_next(property)
        }
        return (properties, identifiers)
    }

    private static func readString(_ property: OpaquePointer, _ identifier: Int32) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        guard mosquitto_property_read_string(property, identifier, &value, false) != nil, let value else { return nil }
        defer { Foundation.free(value) }
        return String(cString: value)
    }
}

@inline(__always) func id(_ property: mqtt5_property) -> Int32 { Int32(property.rawValue) }
