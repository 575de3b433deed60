/// Structured logging metadata keys, in one place.
public enum LogKey {
    public static let topic = "mqtt.topic"
    public static let deviceId = "device.id"
    public static let requester = "privacy.requester"
    public static let service = "service"
    public static let instance = "service.instance"
    public static let shard = "service.shard"
    public static let reason = "reason"
    public static let count = "count"
    public static let error = "error"
    public static let path = "path"
}
