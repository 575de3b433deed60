/// Why an account could not be created, changed or read.
public enum BrokerAccessError: Error, Equatable, CustomStringConvertible, Sendable {
    /// libcrypto refused (random bytes or the key derivation).
    case crypto(String)
    /// A file of the broker's security could not be read or written.
    case file(path: String, reason: String)
    /// The id is not `[A-Za-z0-9_-]{1,64}`.
    case invalidId(String)
    /// The dynamic-security plugin answered a command with an error.
    case refused(command: String, reason: String)
    /// No answer from the plugin in time (not admin, or no plugin loaded).
    case noAnswer(command: String)
    /// The id already has an account: its password is kept, and shown nowhere.
    case alreadyEnrolled(String)

    public var description: String {
        switch self {
        case .crypto(let reason): "cryptography failed: \(reason)"
        case .file(let path, let reason): "\(path): \(reason)"
        case .invalidId(let id): "'\(id)' is not an id: use 1 to 64 of A-Z a-z 0-9 _ -"
        case .refused(let command, let reason): "the broker refused \(command): \(reason)"
        case .noAnswer(let command): "the broker did not answer \(command) (are you connected as admin, with the dynamic-security plugin loaded?)"
        case .alreadyEnrolled(let id): "\(id) already has an account (its password is unchanged): to give it a new one, remove it and add it again"
        }
    }
}
