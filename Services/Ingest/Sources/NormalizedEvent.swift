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
///
/// The body is encoded once: its canonical JSON feeds the content hash, and the envelope fields
/// (`id`, `deviceId`, `ts`, `receivedAt`, none of which needs escaping) are written in front of it.
struct EventNormalizer {
    let encoder = GuardianJSON.encoder()

    /// `id`, when the device sent none: SHA-256 of device, kind, `ts` and the body's canonical JSON.
    static func contentId(deviceId: String, kind: EventKind, ts: Timestamp, bodyJSON: Data) -> String {
        var hasher = SHA256()
        hasher.update("\(deviceId)\n\(kind.rawValue)\n\(ts.milliseconds)\n")
        hasher.update(bodyJSON)
        return Hex.encode(hasher.finalize().prefix(16))
    }

    func make<Body: EventBody>(
        _ body: Body, deviceId: String, deviceEventId: String?, ts: Timestamp, receivedAt: Timestamp
    ) throws -> NormalizedEvent {
        let bodyJSON = try (body as? Location)?.wireJSON ?? encoder.encode(body)
        let id = deviceEventId ?? Self.contentId(deviceId: deviceId, kind: Body.kind, ts: ts, bodyJSON: bodyJSON)
        var payload = Data(#"{"id":"\#(id)","deviceId":"\#(deviceId)","ts":"\#(ts.rfc3339)","receivedAt":"\#(receivedAt.rfc3339)""#.utf8)
        if bodyJSON.count > 2 {
            payload.append(UInt8(ascii: ","))
            payload.append(bodyJSON.dropFirst())
        } else {
            payload.append(UInt8(ascii: "}"))
        }
        return NormalizedEvent(kind: Body.kind, deviceId: deviceId, id: id, ts: ts, receivedAt: receivedAt, payload: payload)
    }
}
