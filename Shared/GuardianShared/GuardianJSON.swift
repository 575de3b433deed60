import Foundation

/// The JSON settings of the wire: sorted keys (so payloads and hashes are deterministic), no escaped slashes.
public enum GuardianJSON {
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .throw
        return encoder
    }

    public static func decoder() -> JSONDecoder { JSONDecoder() }

    /// One encoder for every thread: encoding reads its settings and keeps no other state.
    private static let shared = encoder()

    /// Encodes a value that is known to be encodable (finite numbers, plain types).
    public static func encode(_ value: some Encodable) -> Data {
        do { return try shared.encode(value) } catch { preconditionFailure("encoding \(type(of: value)) failed: \(error)") }
    }
}
