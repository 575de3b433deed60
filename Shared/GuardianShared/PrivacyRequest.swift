/// A request to erase or export everything Guardian holds about one device:
/// `guardian/privacy/requests/{requesterId}` `{id, action, deviceId}`.
public struct PrivacyRequest: Codable, Sendable, Equatable {
    public enum Action: String, Codable, Sendable, CaseIterable { case forget, export }

    public var id: String
    public var action: Action
    public var deviceId: String

    public init(id: String, action: Action, deviceId: String) {
        self.id = id
        self.action = action
        self.deviceId = deviceId
    }

    enum CodingKeys: String, CodingKey { case id, action, deviceId }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        try Identifier.validate(id, field: "id")
        action = try c.choice(.action, Action.self)
        deviceId = try c.decode(String.self, forKey: .deviceId)
        try Identifier.validate(deviceId, field: "deviceId")
    }
}

/// Every instance's answer to a privacy request:
/// `guardian/privacy/receipts/{requesterId}/{requestId}/{service}/{instanceId}`.
public struct PrivacyReceipt: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable, CaseIterable { case done, refused }

    public var requestId: String
    public var action: PrivacyRequest.Action
    public var deviceId: String
    public var ts: Timestamp
    public var status: Status
    public var reason: String?
    /// For `forget`: how many of each kind of data were erased (`events`, `visits`, …).
    public var erased: [String: Int]?

    public init(
        requestId: String, action: PrivacyRequest.Action, deviceId: String, ts: Timestamp, status: Status, reason: String? = nil,
        erased: [String: Int]? = nil
    ) {
        self.requestId = requestId
        self.action = action
        self.deviceId = deviceId
        self.ts = ts
        self.status = status
        self.reason = reason
        self.erased = erased
    }
}

/// What one instance holds about a device:
/// `guardian/privacy/exports/{requesterId}/{requestId}/{service}/{instanceId}`.
public struct PrivacyExport: Codable, Sendable, Equatable {
    public var requestId: String
    public var deviceId: String
    public var service: String
    public var ts: Timestamp
    /// Each kind of data, in the contract's shapes.
    public var data: [String: JSONObject]
    /// For an export too large for one message: this message's number (from 1) and how many there
    /// are. The parts' `data` together are the whole: arrays of one kind are split between parts.
    public var part: Int?
    public var parts: Int?

    public init(requestId: String, deviceId: String, service: String, ts: Timestamp, data: [String: JSONObject], part: Int? = nil, parts: Int? = nil) {
        self.requestId = requestId
        self.deviceId = deviceId
        self.service = service
        self.ts = ts
        self.data = data
        self.part = part
        self.parts = parts
    }
}
