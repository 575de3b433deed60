/// Why a tool could not do what was asked.
public enum BridgeError: Error, Equatable, CustomStringConvertible {
    case unknownChild(String, known: [String])
    case whichChild([String])
    case noAnswer(String)
    case invalidArguments(String)
    /// The broker cannot be reached now (the connection is down or was lost meanwhile); `consequence`
    /// says what that means for the request, e.g. that nothing was sent.
    case brokerUnreachable(String)
    /// The command-router refused the command: why, and what was asked (its summary).
    case refused(reason: String, asked: String)

    public var description: String {
        switch self {
        case .unknownChild(let name, let known): return "no child named \(ToolArguments.shown(name)) in your family (children: \(known.joined(separator: ", ")))"
        case .whichChild(let names): return names.isEmpty ? "you have no children in any family" : "which child: \(names.joined(separator: " or "))?"
        case .noAnswer(let what): return what
        case .invalidArguments(let why): return why
        case .brokerUnreachable(let consequence): return "the Guardian broker is unreachable: \(consequence)"
        case .refused(let reason, let asked): return "Not done: \(reason) (asked: \(asked))"
        }
    }
}
