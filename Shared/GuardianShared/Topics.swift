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

    // Privacy
    /// Every requester's privacy requests: `guardian/privacy/requests/+`.
    public var privacyRequests: String { "\(prefix)/privacy/requests/+" }
    public func privacyRequests(_ requesterId: String) -> String { "\(prefix)/privacy/requests/\(requesterId)" }
    public func privacyReceipt(_ requesterId: String, _ requestId: String, _ service: String, _ instanceId: String) -> String {
        "\(prefix)/privacy/receipts/\(requesterId)/\(requestId)/\(service)/\(instanceId)"
    }
    public func privacyExport(_ requesterId: String, _ requestId: String, _ service: String, _ instanceId: String) -> String {
        "\(prefix)/privacy/exports/\(requesterId)/\(requestId)/\(service)/\(instanceId)"
    }

    // Retained state about a device, which erasing it clears
    public var families: String { "\(prefix)/families/+" }
    public func family(_ familyId: String) -> String { "\(prefix)/families/\(familyId)" }
    public func profile(_ deviceId: String) -> String { "\(prefix)/devices/\(deviceId)/profile" }
    public func preferences(_ userId: String) -> String { "\(prefix)/users/\(userId)/preferences" }
    public func timelineDay(_ deviceId: String, _ date: String) -> String { "\(prefix)/timeline/\(deviceId)/days/\(date)" }
    public func childCommand(_ deviceId: String) -> String { "\(prefix)/children/\(deviceId)/command" }
    public func childPolicy(_ deviceId: String) -> String { "\(prefix)/children/\(deviceId)/policy" }
    public func childStatus(_ deviceId: String) -> String { "\(prefix)/children/\(deviceId)/status" }

    /// `$share/{group}/{filter}`: replicas of a stateless service split the messages.
    public static func shared(_ group: String, _ filter: String) -> String { "$share/\(group)/\(filter)" }

    /// Splits a topic under the prefix into its levels after the prefix, e.g. `["devices", "phone-1", "location"]`.
    public func levels(of topic: String) -> [Substring]? {
        guard topic.hasPrefix(root) else { return nil }
        return topic.dropFirst(root.count).split(separator: "/", omittingEmptySubsequences: false)
    }
}
