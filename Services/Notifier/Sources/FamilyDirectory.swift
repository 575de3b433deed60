import GuardianShared

/// Families by id, and for each child the parents to tell and the name to use.
struct FamilyDirectory: Sendable {
    private(set) var families: [String: Family] = [:]

    mutating func set(_ family: Family?, id: String) { families[id] = family }

    func parents(of deviceId: String) -> [String] {
        Array(Set(families.values.filter { $0.children.contains { $0.deviceId == deviceId } }.flatMap(\.parents))).sorted()
    }

    func name(of deviceId: String) -> String {
        families.values.lazy.flatMap(\.children).first { $0.deviceId == deviceId }?.name ?? deviceId
    }
}
