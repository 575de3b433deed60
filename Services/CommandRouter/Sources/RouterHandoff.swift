import Foundation
import GuardianShared

/// What the command-router hands to a child's new shard: the child's rules and last published
/// policy (with its version, so the next one moves on from it), its app usage, and the commands
/// handled for it (so a redelivered one is not applied again by the new owner).
struct RouterHandoff: Codable, Equatable {
    struct Usage: Codable, Equatable {
        var id: String
        var ts: Int64
        var app: String
        var category: String?
        var seconds: Double
    }

    struct Handled: Codable, Equatable {
        var commandId: String
        var parent: String
        var at: Int64
    }

    var rules: [RestrictionRule]?
    var policyVersion: Int?
    var published: [ChildPolicy.Restriction]?
    var usage: [Usage]
    var handled: [Handled]
}
