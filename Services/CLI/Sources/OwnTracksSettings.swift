import Foundation

/// What an OwnTracks phone needs to reach Guardian: the MQTT mode settings, and the same as a
/// configuration file the app imports (`.otrc`, `_type: configuration`).
struct OwnTracksSettings {
    var host: String
    var port: Int
    var user: String
    var password: String

    var text: String {
        let configuration: [String: Any] = [
            "_type": "configuration", "mode": 0, "host": host, "port": port, "tls": true, "auth": true,
            "username": user, "password": password, "deviceId": "phone", "clientId": "\(user)-phone",
            "pubTopicBase": "owntracks/%u/%d", "sub": true, "pubQos": 1,
        ]
        let json = (try? JSONSerialization.data(withJSONObject: configuration, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]))
            .flatMap { String(data: $0, encoding: .utf8) } ?? "{}"
        return """

            OwnTracks (Preferences > Connection):
              Mode: MQTT   Host: \(host)   Port: \(port)   TLS: on (install the broker's ca.crt on the phone)
              Username: \(user)   Password: (above)   Device ID: phone
            or import this as a .otrc file:
            \(json)
            """
    }
}
