/// Families by id: which parents may command which children, and the children's names.
public struct FamilyDirectory: Sendable {
    public private(set) var families: [String: Family] = [:]

    public init() {}

    public mutating func set(_ family: Family?, id: String) { families[id] = family }

    /// Every parent of a family that lists the child.
    public func parents(of deviceId: String) -> [String] {
        Array(Set(families.values.filter { $0.children.contains { $0.deviceId == deviceId } }.flatMap(\.parents))).sorted()
    }

    public func name(of deviceId: String) -> String {
        families.values.lazy.flatMap(\.children).first { $0.deviceId == deviceId }?.name ?? deviceId
    }

    /// The children a parent may command.
    public func children(of parent: String) -> [Family.Child] {
        var seen = Set<String>()
        return families.keys.sorted().compactMap { families[$0] }.filter { $0.parents.contains(parent) }.flatMap(\.children)
            .filter { seen.insert($0.deviceId).inserted }
    }

    /// Whether `parent` may command the child `deviceId`.
    public func may(_ parent: String, command deviceId: String) -> Bool {
        families.values.contains { $0.parents.contains(parent) && $0.children.contains { $0.deviceId == deviceId } }
    }
}
