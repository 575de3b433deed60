import GuardianShared

/// The families the broker holds, as received on one connection. The broker sends every retained
/// family again on each (re)connect, so a new connection starts a new, empty view, complete once
/// that burst is in: until then, "no such child" would only mean "not arrived yet".
struct FamilyView: Sendable {
    /// The connection (`ParentBridge.connection`) these families were received on.
    private(set) var connection = 0
    private(set) var directory = FamilyDirectory()
    /// Whether every family retained at the broker has arrived on `connection`.
    private(set) var complete = false

    /// Records a family received on `connection` (nil: removed).
    mutating func set(_ family: Family?, id: String, on connection: Int) {
        if connection != self.connection { self = FamilyView(connection: connection) }
        directory.set(family, id: id)
    }

    /// Every retained family has arrived on `connection` (there may be none).
    mutating func markComplete(on connection: Int) {
        if connection != self.connection { self = FamilyView(connection: connection) }
        complete = true
    }

    /// Whether the view is complete for `connection`.
    func isComplete(on connection: Int) -> Bool { complete && self.connection == connection }
}
