/// The contract's id rule for `deviceId`, `userId`, `zoneId`, `familyId`: `[A-Za-z0-9_-]{1,64}`,
/// so no id can smuggle `/`, `+` or `#` into a topic.
public enum Identifier {
    public static let maxLength = 64

    public static func isValid(_ id: some StringProtocol) -> Bool {
        let utf8 = id.utf8
        guard !utf8.isEmpty, utf8.count <= maxLength else { return false }
        return utf8.allSatisfy(isAllowed)
    }

    /// Event ids sent by devices: the id alphabet plus `.` and `:`, up to 128 characters (UUIDs, ULIDs, …).
    public static func isValidEventId(_ id: some StringProtocol) -> Bool {
        let utf8 = id.utf8
        guard !utf8.isEmpty, utf8.count <= 128 else { return false }
        return utf8.allSatisfy { isAllowed($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: ":") }
    }

    @inline(__always) static func isAllowed(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x5F || c == 0x2D
    }

    /// Throws a `ContractViolation` naming `field` when `id` breaks the rule.
    public static func validate(_ id: String, field: String) throws(ContractViolation) {
        guard isValid(id) else {
            throw ContractViolation(field: field, "must match [A-Za-z0-9_-]{1,64}, got \(ContractViolation.quote(id))")
        }
    }
}
