import Foundation

extension Location {
    /// The same bytes as `GuardianJSON.encode(self)`, written directly: ingest writes one per fix,
    /// and its content-derived event ids hash exactly these bytes. Nil when a number is not finite
    /// (the encoder then reports it).
    public var wireJSON: Data? {
        var writer = JSONWriter(capacity: 160)
        var first = true
        func key(_ name: StaticString) {
            writer.raw(first ? "{" : ",")
            first = false
            writer.raw("\"")
            writer.raw(name)
            writer.raw("\":")
        }
        if let acc { key("acc"); guard writer.number(acc) else { return nil } }
        if let alt { key("alt"); guard writer.number(alt) else { return nil } }
        if let course { key("course"); guard writer.number(course) else { return nil } }
        key("lat")
        guard writer.number(lat) else { return nil }
        key("lon")
        guard writer.number(lon) else { return nil }
        if let ownTracks {
            key("ownTracks")
            writer.raw(#"{"device":"#)
            writer.string(ownTracks.device)
            writer.raw(#","user":"#)
            writer.string(ownTracks.user)
            writer.raw("}")
        }
        if let speed { key("speed"); guard writer.number(speed) else { return nil } }
        writer.raw("}")
        return Data(writer.bytes)
    }
}
