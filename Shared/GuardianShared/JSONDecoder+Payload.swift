import Foundation

extension JSONDecoder {
    /// `decode(_:from:)` for a payload from the broker.
    ///
    /// Foundation's JSONDecoder (Swift 6.3) traps instead of throwing when the `[` that opens the
    /// 513th nesting level is the payload's last byte (its "too deeply nested" error points one byte
    /// past the end), so one 515-byte message would kill the service. No JSON text ends with `[`:
    /// such a payload (trailing whitespace aside) is refused before it reaches the decoder.
    public func decodePayload<T: Decodable>(_ type: T.Type, from payload: Data) throws -> T {
        let last = payload.last { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }
        guard last != UInt8(ascii: "[") else { throw ContractViolation("not valid JSON: unexpected end of input") }
        return try decode(type, from: payload)
    }
}
