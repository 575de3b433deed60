import GuardianShared

/// One item a device uploads: optional `id`, `ts` (optional only for `profile`), and the kind's fields.
struct DeviceUpload<Body: Decodable & Sendable>: Decodable, Sendable {
    var id: String?
    var ts: Timestamp?
    var body: Body

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        if c.contains(AnyKey("id")) {
            let id = try c.decode(String.self, forKey: AnyKey("id"))
            guard Identifier.isValidEventId(id) else {
                throw ContractViolation(path: c.codingPath + [AnyKey("id")], "event id must be 1-128 characters of [A-Za-z0-9_.:-]")
            }
            self.id = id
        }
        ts = try c.decodeIfPresent(Timestamp.self, forKey: AnyKey("ts"))
        body = try Body(from: decoder)
    }
}

/// A batch element that keeps its own decoding failure instead of failing the whole batch.
struct BatchItem<Item: Decodable & Sendable>: Decodable, Sendable {
    var result: Result<Item, ContractViolation>

    init(from decoder: any Decoder) throws {
        do {
            result = .success(try Item(from: decoder))
        } catch {
            result = .failure(ContractViolation.from(error))
        }
    }
}
