import COpenSSL
import Foundation

/// A generated password, and the salted PBKDF2-SHA512 hash the dynamic-security plugin stores.
public enum AccountPassword {
    /// What the plugin's `mosquitto_ctrl dynsec init` uses: 12 bytes of salt, 101 rounds.
    static let saltBytes = 12
    static let iterations = 101

    private static let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789")

    /// A new random password of `length` characters (about 5.8 bits each), from the system's CSPRNG.
    public static func generate(length: Int = 24) -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
    }

    /// The plugin's stored form of `password`: base64 hash, base64 salt, iterations.
    public static func hash(_ password: String) throws(BrokerAccessError) -> (hash: String, salt: String, iterations: Int) {
        var salt = [UInt8](repeating: 0, count: saltBytes)
        guard RAND_bytes(&salt, Int32(saltBytes)) == 1 else { throw .crypto("RAND_bytes failed") }
        let derived = try derive(password, salt: salt, iterations: iterations)
        return (Data(derived).base64EncodedString(), Data(salt).base64EncodedString(), iterations)
    }

    /// PBKDF2-HMAC-SHA512 with a 64-byte output, as the plugin checks it.
    static func derive(_ password: String, salt: [UInt8], iterations: Int) throws(BrokerAccessError) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 64)
        let utf8 = Array(password.utf8)
        let ok = utf8.withUnsafeBufferPointer { pw in
            utf8.isEmpty
                ? PKCS5_PBKDF2_HMAC("", 0, salt, Int32(salt.count), Int32(iterations), EVP_sha512(), 64, &out)
                : pw.withMemoryRebound(to: CChar.self) { chars in
                    PKCS5_PBKDF2_HMAC(chars.baseAddress, Int32(utf8.count), salt, Int32(salt.count), Int32(iterations), EVP_sha512(), 64, &out)
                }
        }
        guard ok == 1 else { throw .crypto("PKCS5_PBKDF2_HMAC failed") }
        return out
    }
}
