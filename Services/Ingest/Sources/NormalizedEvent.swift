import Foundation
import GuardianShared

/// An accepted event, encoded once, ready to store and republish.
struct NormalizedEvent: Sendable {
    var kind: EventKind
    var deviceId: String
    var id: String
    var ts: Timestamp
    var receivedAt: Timestamp
    /// The full JSON of `DeviceEvent<Body>`, exactly as stored and republished.
    var payload: Data
    /// Profiles are republished retained so late subscribers learn every device's time zone.
    var retain: Bool { kind == .profile }
}

/// Builds normalised events: assigns ids (the device's own, or a deterministic hash) and encodes them.
struct EventNormalizer {
    let encoder = GuardianJSON.encoder()

    /// `id`, when the device sent none: SHA-256 of device, kind, `ts` and the body's canonical JSON.
    func contentId(deviceId: String, kind: EventKind, ts: Timestamp, body: some EventBody) throws -> String {
        var hasher = SHA256()
        hasher.update("\(deviceId)\n\(kind.rawValue)\n\(ts.milliseconds)\n")
        hasher.update(try encoder.encode(body))
        return hasher.finalize().prefix(16).map { String(format: "%02x", $0) }.joined()
    }

    func make<Body: EventBody>(
        _ body: Body, deviceId: String, deviceEventId: String?, ts: Timestamp, receivedAt: Timestamp
    ) throws -> NormalizedEvent {
        let id = try deviceEventId ?? contentId(deviceId: deviceId, kind: Body.kind, ts: ts, body: body)
        let event = DeviceEvent(id: id, deviceId: deviceId, ts: ts, receivedAt: receivedAt, body: body)
        return NormalizedEvent(kind: Body.kind, deviceId: deviceId, id: id, ts: ts, receivedAt: receivedAt, payload: try encoder.encode(event))
    }
}
