import COpenSSL
import Foundation

/// SHA-256 through libcrypto's EVP interface, for event ids, model checksums and tombstone digests.
public struct SHA256: ~Copyable {
    private let context: OpaquePointer

    public init() {
        guard let context = EVP_MD_CTX_new() else { fatalError("libcrypto could not allocate a digest context") }
        guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else { fatalError("libcrypto has no SHA-256") }
        self.context = context
    }

    deinit { EVP_MD_CTX_free(context) }

    public mutating func update<D: Sequence>(_ bytes: D) where D.Element == UInt8 {
        let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            _ = EVP_DigestUpdate(context, buffer.baseAddress, buffer.count)
        }
        if done == nil {
            Array(bytes).withUnsafeBufferPointer { buffer in _ = EVP_DigestUpdate(context, buffer.baseAddress, buffer.count) }
        }
    }

    public mutating func update(_ data: Data) {
        data.withUnsafeBytes { buffer in _ = EVP_DigestUpdate(context, buffer.baseAddress, buffer.count) }
    }

    public mutating func update(_ text: String) { update(Array(text.utf8)) }

    public consuming func finalize() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        _ = EVP_DigestFinal_ex(context, &digest, &length)
        return digest
    }

    public static func hash<D: Sequence>(_ bytes: D) -> [UInt8] where D.Element == UInt8 {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    public static func hex<D: Sequence>(_ bytes: D) -> String where D.Element == UInt8 {
        Hex.encode(hash(bytes))
    }
}
