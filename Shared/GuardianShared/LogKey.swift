/// Structured logging metadata keys, in one place.
public enum LogKey {
    public static let topic = "mqtt.topic"
    public static let deviceId = "device.id"
    public static let requester = "privacy.requester"
    public static let service = "service"
    public static let instance = "service.instance"
    public static let shard = "service.shard"
    /// Another instance of the same service whose session is handed over.
    public static let peer = "service.peer"
    public static let reason = "reason"
    public static let count = "count"
    public static let error = "error"
    public static let path = "path"
}
