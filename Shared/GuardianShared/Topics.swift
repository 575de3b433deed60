/// Every topic of the contract, under the configured prefix (default `guardian`).
public struct Topics: Sendable {
    public let prefix: String
    /// `prefix` and the level separator, which every topic under it starts with.
    private let root: String

    public init(prefix: String = "guardian") {
        self.prefix = prefix
        root = prefix + "/"
    }

    // Devices → ingest
    public func deviceUpload(_ deviceId: String, _ kind: EventKind) -> String { "\(prefix)/devices/\(deviceId)/\(kind.rawValue)" }
    /// `guardian/devices/+/+`: every device upload.
    public var deviceUploads: String { "\(prefix)/devices/+/+" }
    public static let ownTracksLocations = "owntracks/+/+"
    public static let ownTracksEvents = "owntracks/+/+/event"
    public static func ownTracksCommand(user: String, device: String) -> String { "owntracks/\(user)/\(device)/cmd" }

    // Ingest → everyone
    public func event(_ deviceId: String, _ kind: EventKind) -> String { "\(prefix)/events/\(deviceId)/\(kind.rawValue)" }
    public func events(kind: EventKind) -> String { "\(prefix)/events/+/\(kind.rawValue)" }
    public var allEvents: String { "\(prefix)/events/#" }

    // Runtime
    public func errors(_ service: String) -> String { "\(prefix)/errors/\(service)" }
    public var allErrors: String { "\(prefix)/errors/#" }
    public func presence(_ service: String, _ instanceId: String) -> String { "\(prefix)/services/\(service)/\(instanceId)" }
    public var allPresence: String { "\(prefix)/services/+/+" }

    /// `$share/{group}/{filter}`: replicas of a stateless service split the messages.
    public static func shared(_ group: String, _ filter: String) -> String { "$share/\(group)/\(filter)" }

    /// Splits a topic under the prefix into its levels after the prefix, e.g. `["devices", "phone-1", "location"]`.
    public func levels(of topic: String) -> [Substring]? {
        guard topic.hasPrefix(root) else { return nil }
        return topic.dropFirst(root.count).split(separator: "/", omittingEmptySubsequences: false)
    }
}
