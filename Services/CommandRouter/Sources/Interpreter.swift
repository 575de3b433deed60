import Foundation

/// Turns a parent's natural-language message into a structured command, or a question back.
public protocol Interpreter: Sendable {
    /// `now` and `timeZone` (the child's) anchor relative times: "till 8pm" becomes an `until`
    /// instant, "bedtime mode" starts at the current local time.
    func interpret(_ text: String, now: Date, timeZone: TimeZone) async -> Interpretation
}

/// What an ``Interpreter`` made of a message.
public enum Interpretation: Sendable, Equatable {
    /// A command for `child`: a name or a pronoun as the parent wrote it ("Sam", "him", "her"),
    /// nil when the message names no child; the router resolves it against the family.
    case command(ParentCommand, child: String?)
    /// The message is not a command the interpreter is sure of: ask the parent this.
    case clarify(question: String)

    public var command: ParentCommand? {
        if case .command(let command, _) = self { return command }
        return nil
    }

    public var child: String? {
        if case .command(_, let child) = self { return child }
        return nil
    }

    public var isClarify: Bool {
        if case .clarify = self { return true }
        return false
    }
}
