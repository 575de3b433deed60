import Foundation
import GuardianCommandRouter
import GuardianShared

/// The words a person reads: names, not ids; times on their clock.
enum NotificationText {
    static func nudge(_ prediction: PredictionDigest, zoneName: String?) -> (title: String, body: String) {
        let place = prediction.merchant ?? zoneName ?? "a shop you flagged"
        let percent = Int((prediction.probability * 100).rounded())
        return ("Careful at \(place)", "You're near \(place): \(percent)% chance you'd regret a purchase here.")
    }

    static func reply(_ reply: CommandReply) -> (title: String, body: String) {
        switch reply.status {
        case .accepted: return ("Done", reply.summary)
        case .rejected: return ("Not done", reply.reason.map { "\(reply.summary) (\($0))" } ?? reply.summary)
        case .clarify: return ("Can you clarify?", reply.summary)
        }
    }

    static func status(_ status: ChildStatus, childName: String) -> (title: String, body: String) {
        ("\(childName)'s device", status.message)
    }

    static func childCommand(action: String, message: String?) -> (title: String, body: String) {
        switch action {
        case "warning": return ("Message from your parent", message ?? "Please check in with your parent.")
        case "allow": return ("Restrictions lifted", message ?? "Your parent lifted some restrictions.")
        case "extend": return ("More time", message ?? "Your parent gave you more time.")
        case "schedule": return ("New schedule", message ?? "Your parent set a schedule on this device.")
        default: return ("New restriction", message ?? "Your parent changed what this device allows.")
        }
    }

    /// `command` is the one acknowledged when the notifier saw it go out; `timeZone` the parent's.
    static func ack(_ ack: CommandAck, childName: String, command: ChildCommandMessage?, timeZone: TimeZone) -> (title: String, body: String) {
        let effect = command.map { $0.command.effect(expiresAt: $0.expiresAt, in: timeZone) }
        if ack.ok {
            return ("\(childName)'s device applied your command", effect.map { "In effect now: \($0)." } ?? "Your command is in effect now.")
        }
        let what = effect.map { "“\($0)” could not be applied" } ?? "Your command could not be applied"
        return ("\(childName)'s device could not apply your command", ack.error.map { "\(what): \($0)" } ?? "\(what).")
    }
}
