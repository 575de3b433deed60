import Foundation

/// Who uses a device and in which time zone (`profile` kind, retained).
public struct DeviceProfile: EventBody, Equatable {
    public enum Role: String, Codable, CaseIterable, Sendable { case adult, parent, child }

    public static let kind = EventKind.profile
    /// IANA time zone, e.g. `Europe/Paris`.
    public var timezone: String
    public var role: Role
    public var name: String?

    public init(timezone: String, role: Role, name: String? = nil) {
        self.timezone = timezone
        self.role = role
        self.name = name
    }

    enum CodingKeys: String, CodingKey { case timezone, role, name }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        timezone = try c.text(.timezone, maxLength: 64)
        guard TimeZone(identifier: timezone) != nil else {
            throw ContractViolation(path: c.codingPath + [CodingKeys.timezone], "unknown IANA time zone \(ContractViolation.quote(timezone))")
        }
        role = try c.choice(.role, Role.self)
        name = try c.optionalText(.name, maxLength: 128)
    }

    public var timeZone: TimeZone { TimeZone(identifier: timezone) ?? TimeZone(identifier: "UTC")! }
}
