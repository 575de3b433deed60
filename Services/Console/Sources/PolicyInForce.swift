import GuardianShared

/// A child's policy as the command-router publishes it retained on `…/children/{id}/policy`.
struct PolicyInForce: Decodable, Sendable, Equatable {
    struct Restriction: Decodable, Sendable, Equatable {
        var id: String
        var kind: String
        var apps: [String]?
        var categories: [String]?
        var from: Timestamp?
        var until: Timestamp?
        var message: String?
        var commandId: String?
    }

    var version: Int
    var updatedAt: Timestamp?
    var restrictions: [Restriction]
}
