import GRDB

extension Database {
    /// For each kind that has a cutoff, deletes the rows of its table whose time column (epoch
    /// milliseconds) is before the cutoff; returns how many rows each kind lost.
    public func prune(_ cutoffs: [String: Timestamp], _ tables: [String: (table: String, column: String)]) throws -> [String: Int] {
        var pruned: [String: Int] = [:]
        for (kind, place) in tables {
            guard let cutoff = cutoffs[kind] else { continue }
            try execute(sql: "DELETE FROM \(place.table) WHERE \(place.column) < ?", arguments: [cutoff.milliseconds])
            pruned[kind] = changesCount
        }
        return pruned
    }
}
