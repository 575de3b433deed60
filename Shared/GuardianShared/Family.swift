/// Who may command whom: retained on `guardian/families/{familyId}`.
public struct Family: Codable, Sendable, Equatable {
    public struct Child: Codable, Sendable, Equatable {
        public var deviceId: String
        public var name: String
        public init(deviceId: String, name: String) {
            self.deviceId = deviceId
            self.name = name
        }

        enum CodingKeys: String, CodingKey { case deviceId, name }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            deviceId = try c.decode(String.self, forKey: .deviceId)
            try Identifier.validate(deviceId, field: "deviceId")
            name = try c.text(.name, maxLength: 64)
        }
    }

    public var parents: [String]
    public var children: [Child]

    public init(parents: [String], children: [Child]) {
        self.parents = parents
        self.children = children
    }

    enum CodingKeys: String, CodingKey { case parents, children }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        parents = try c.decode([String].self, forKey: .parents)
        for parent in parents { try Identifier.validate(parent, field: "parents") }
        children = try c.decode([Child].self, forKey: .children)
        guard parents.count <= 16, children.count <= 32 else { throw ContractViolation(path: c.codingPath, "at most 16 parents and 32 children") }
    }
}
