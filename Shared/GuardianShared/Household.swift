import Foundation

/// Who is who, from retained messages: families (`guardian/families/+`), people's notification
/// preferences (`guardian/users/+/preferences`) and devices' time zones (`guardian/events/+/profile`).
public struct Household: Sendable {
    public var families = FamilyDirectory()
    public var preferences: [String: UserPreferences] = [:]
    public var timeZones: [String: TimeZone] = [:]

    public init() {}

    /// Applies one message, given its topic levels after the prefix; false when it is none of these.
    /// An empty payload (a cleared retained message) forgets a family, preferences or a profile.
    public mutating func apply(levels: [Substring], payload: Data) throws -> Bool {
        guard levels.count >= 2, Identifier.isValid(levels[1]) else { return false }
        let id = String(levels[1])
        switch (levels[0], levels.count, levels.last) {
        case ("families", 2, _):
            families.set(payload.isEmpty ? nil : try JSONDecoder().decodePayload(Family.self, from: payload), id: id)
        case ("users", 3, "preferences"):
            preferences[id] = payload.isEmpty ? nil : try JSONDecoder().decodePayload(UserPreferences.self, from: payload)
        case ("events", 3, "profile"):
            timeZones[id] = payload.isEmpty ? nil : try JSONDecoder().decodePayload(DeviceEvent<DeviceProfile>.self, from: payload).body.timeZone
        default:
            return false
        }
        return true
    }

    /// The time zone a person or device lives in: their preferences', else their profile's, else UTC.
    public func timeZone(of id: String) -> TimeZone {
        knownTimeZone(of: id) ?? TimeZone(identifier: "UTC")!
    }

    /// Their preferences' time zone, else their profile's; nil when neither names one.
    public func knownTimeZone(of id: String) -> TimeZone? {
        preferences[id]?.timezone.flatMap(TimeZone.init(identifier:)) ?? timeZones[id]
    }

    /// Forgets an erased device's preferences and time zone.
    public mutating func forget(_ id: String) {
        preferences[id] = nil
        timeZones[id] = nil
    }
}
