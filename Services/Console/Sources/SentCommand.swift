import GuardianShared

/// A command the parent typed, and the command-router's reply once it came.
struct SentCommand: Sendable, Equatable {
    var id: String
    var text: String
    var child: String?
    var sentAt: Timestamp
    var reply: CommandReply?
}
