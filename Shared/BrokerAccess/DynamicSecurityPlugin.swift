import Foundation

/// Where mosquitto's dynamic-security plugin is installed.
public enum DynamicSecurityPlugin {
    /// Debian's multiarch folders first, then the Docker image's.
    public static let candidates = [
        "/usr/lib/x86_64-linux-gnu/mosquitto_dynamic_security.so", "/usr/lib/aarch64-linux-gnu/mosquitto_dynamic_security.so",
        "/usr/lib/mosquitto_dynamic_security.so", "/usr/local/lib/mosquitto_dynamic_security.so",
    ]

    /// The first installed candidate, or nil.
    public static var installedPath: String? {
        candidates.first { FileManager.default.fileExists(atPath: $0) }
    }
}
