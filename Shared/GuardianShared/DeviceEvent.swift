/// A normalised event as ingest republishes it on `guardian/events/{deviceId}/{kind}`: the body's
/// fields plus `id`, `deviceId`, `ts` and `receivedAt` in one flat JSON object.
public struct DeviceEvent<Body: EventBody>: Codable, Sendable {
    public var id: String
    public var deviceId: String
    public var ts: Timestamp
    public var receivedAt: Timestamp
    public var body: Body

    public init(id: String, deviceId: String, ts: Timestamp, receivedAt: Timestamp, body: Body) {
        self.id = id
        self.deviceId = deviceId
        self.ts = ts
        self.receivedAt = receivedAt
        self.body = body
    }

    enum CodingKeys: String, CodingKey { case id, deviceId, ts, receivedAt }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.text(.id, maxLength: 128)
        deviceId = try c.decode(String.self, forKey: .deviceId)
        try Identifier.validate(deviceId, field: "deviceId")
        ts = try c.decode(Timestamp.self, forKey: .ts)
        receivedAt = try c.decode(Timestamp.self, forKey: .receivedAt)
        body = try Body(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        try body.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(deviceId, forKey: .deviceId)
        try c.encode(ts, forKey: .ts)
        try c.encode(receivedAt, forKey: .receivedAt)
    }
}
