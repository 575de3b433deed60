/// Why the console could not do what a request asked, worded for the parent.
enum ConsoleError: Error, Equatable, CustomStringConvertible {
    /// The broker refused the id and password (CONNACK refusal).
    case signInRefused
    case brokerUnavailable(String)
    /// A form that is not what the page sends: missing, malformed or out-of-range fields.
    case badForm(String)
    case bodyTooLarge(limit: Int)
    /// The form came without this session's token, or from another site.
    case forgedRequest(String)
    case notSignedIn
    /// A child id that is not among the parent's children.
    case notYourChild(String)
    case busFailure(String)
    /// Too many refused sign-ins for this id lately.
    case tooManyAttempts(minutes: Int)

    var status: Int {
        switch self {
        case .signInRefused, .notSignedIn: 401
        case .brokerUnavailable, .busFailure: 503
        case .badForm: 400
        case .bodyTooLarge: 413
        case .forgedRequest: 403
        case .notYourChild: 404
        case .tooManyAttempts: 429
        }
    }

    var description: String {
        switch self {
        case .signInRefused: "Wrong Guardian id or password."
        case .brokerUnavailable(let why): "Guardian cannot be reached right now (\(why)). Try again in a moment."
        case .badForm(let why): "This form could not be read: \(why)."
        case .bodyTooLarge(let limit): "This form is too large (over \(limit) bytes)."
        case .forgedRequest(let why): "This request was refused: \(why). Reload the page and try again."
        case .notSignedIn: "Please sign in."
        case .notYourChild(let id): "There is no child \(id) in your family."
        case .busFailure(let why): "Guardian did not take the request: \(why)."
        case .tooManyAttempts(let minutes): "Too many wrong passwords for this id. Try again in \(minutes) minute\(minutes == 1 ? "" : "s")."
        }
    }
}
