import Foundation

/// How to reach the broker and what kind of session to keep there.
public struct MQTTConfiguration: Sendable {
    public var host: String
    public var port: Int
    public var username: String?
    public var password: String?
    /// CA certificate file: when set (or with an `mqtts://` URL) the connection uses TLS.
    public var tlsCAFile: String?
    public var useTLS: Bool
    /// Stable client id: with `cleanStart == false` the broker keeps the session across restarts.
    public var clientId: String
    public var cleanStart: Bool
    /// How long the broker keeps the session (and queues QoS 1 messages) after a disconnect.
    public var sessionExpirySeconds: UInt32
    public var keepAliveSeconds: Int32
    public var will: MQTTOutgoing?
    /// Reconnect backoff: starts at `reconnectDelayMin`, doubles up to `reconnectDelayMax`.
    public var reconnectDelayMin: Duration
    public var reconnectDelayMax: Duration
    /// How many unacknowledged QoS 1 messages the broker may send us at once.
    public var receiveMaximum: Int32
    /// How many of our QoS 1 publishes may await acknowledgement at once.
    public var sendMaximum: Int32
    /// How many QoS 1/2 publishes are handed to libmosquitto before its acknowledgements come back;
    /// later ones wait, in order, in the client. libmosquitto keeps its queue as a list it walks on
    /// every publish and acknowledgement, and reuses message ids past 65,535 (dropping the older
    /// message with the same id), so a long backlog there is slow and, past that size, lossy.
    public var publishWindow = 256
    /// How long the network thread waits in `poll` when nothing happens; other threads wake it when
    /// they queue something to send.
    public var idlePollInterval: Duration = .milliseconds(100)
    /// After a turn of the network thread that read something (but not the most a turn reads), how
    /// long it pauses before looking again. Under load, what arrives meanwhile is read, stored and
    /// acknowledged in the next turn together (one transaction and fewer system calls instead of a
    /// turn per message or two); a message waits at most this much longer. Zero (the default) turns it off.
    public var coalescingPause: Duration = .zero
    /// False for a connection that must never come back by itself once it ends (a session taken over
    /// from a departed replica: reconnecting would fight its owner). A first attempt that fails ends it too.
    public var reconnects = true
    /// Routes every message by its topic to the first registration whose filter matches, ignoring
    /// subscription identifiers: for a session whose queue was filled under another client's
    /// identifiers (see `MQTTClient.adoptingSession`).
    public var routesByTopic = false
    /// Publishes on a second connection (clean session, no will, no subscriptions), and writes the
    /// acknowledgements of the messages a turn of the network thread read only once the broker has
    /// acknowledged everything the turn's handlers published (`PublishFence`): a process killed at
    /// any moment leaves each message either unacknowledged, to be delivered again, or with all it
    /// caused at the broker. For services, whose handlers turn messages into others.
    public var acknowledgesAfterPublishing = false

    public init(
        host: String = "127.0.0.1", port: Int = 1883, username: String? = nil, password: String? = nil,
        tlsCAFile: String? = nil, useTLS: Bool = false, clientId: String, cleanStart: Bool = false,
        sessionExpirySeconds: UInt32 = 7 * 24 * 3600, keepAliveSeconds: Int32 = 30, will: MQTTOutgoing? = nil,
        reconnectDelayMin: Duration = .milliseconds(100), reconnectDelayMax: Duration = .seconds(10),
        receiveMaximum: Int32 = 1000, sendMaximum: Int32 = 1000
    ) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.tlsCAFile = tlsCAFile
        self.useTLS = useTLS || tlsCAFile != nil
        self.clientId = clientId
        self.cleanStart = cleanStart
        self.sessionExpirySeconds = sessionExpirySeconds
        self.keepAliveSeconds = keepAliveSeconds
        self.will = will
        self.reconnectDelayMin = reconnectDelayMin
        self.reconnectDelayMax = reconnectDelayMax
        self.receiveMaximum = receiveMaximum
        self.sendMaximum = sendMaximum
    }

    /// Reads `mqtt://[user[:password]@]host[:port]` or `mqtts://…` (port defaults to 1883 / 8883).
    public init(url: String, clientId: String) throws(MQTTError) {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            let host = components.host, !host.isEmpty
        else { throw .invalidConfiguration("cannot read broker URL '\(url)'; expected mqtt://host:port") }
        let tls: Bool
        switch scheme {
        case "mqtt", "tcp": tls = false
        case "mqtts", "ssl", "tls": tls = true
        default: throw .invalidConfiguration("unsupported scheme '\(scheme)' in '\(url)'; use mqtt:// or mqtts://")
        }
        self.init(
            host: host, port: components.port ?? (tls ? 8883 : 1883),
            username: components.user?.removingPercentEncoding, password: components.password?.removingPercentEncoding,
            useTLS: tls, clientId: clientId)
    }
}
