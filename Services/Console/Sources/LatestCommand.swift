import GuardianShared

/// A child's latest command as published retained on `…/children/{id}/command`.
struct LatestCommand: Decodable, Sendable, Equatable {
    var id: String
    var issuedAt: Timestamp?
    var issuedBy: String?
    var command: JSONObject
    var expiresAt: Timestamp?
}
