import Foundation

extension PrivacyExport {
    /// The largest export message: the broker's payload limit (32 MiB), less room for the topic and
    /// the envelope.
    public static let maxMessageBytes = 32 * 1024 * 1024 - 64 * 1024

    /// The export as messages of at most `maxBytes` each: itself when it fits, else parts numbered
    /// from 1 whose arrays, concatenated in order, give back each kind of data.
    public func split(maxBytes: Int = PrivacyExport.maxMessageBytes) -> [PrivacyExport] {
        guard GuardianJSON.encode(self).count > maxBytes else { return [self] }
        let budget = max(1024, maxBytes - 4096)
        var chunks: [[String: JSONObject]] = [[:]]
        var arrays: [String: [JSONObject]] = [:]
        var used = 0
        func close() {
            for (key, items) in arrays { chunks[chunks.count - 1][key] = .array(items) }
            arrays = [:]
        }
        func makeRoom(for size: Int) {
            guard used > 0 && used + size > budget else { return }
            close()
            chunks.append([:])
            used = 0
        }
        for key in data.keys.sorted() {
            guard let value = data[key] else { continue }
            if case .array(let items) = value {
                if items.isEmpty { chunks[chunks.count - 1][key] = value }
                for item in items {
                    let size = GuardianJSON.encode(item).count + 1
                    makeRoom(for: size + key.utf8.count + 8)
                    arrays[key, default: []].append(item)
                    used += size + (arrays[key]!.count == 1 ? key.utf8.count + 8 : 0)
                }
            } else {
                let size = GuardianJSON.encode(value).count + key.utf8.count + 8
                makeRoom(for: size)
                chunks[chunks.count - 1][key] = value
                used += size
            }
        }
        close()
        return chunks.enumerated().map { index, chunk in
            PrivacyExport(requestId: requestId, deviceId: deviceId, service: service, ts: ts, data: chunk, part: index + 1, parts: chunks.count)
        }
    }

    /// The whole export again from all its parts (in any order); nil while one is missing.
    public static func joined(_ parts: [PrivacyExport]) -> PrivacyExport? {
        guard let first = parts.first else { return nil }
        guard let count = first.parts else { return parts.count == 1 ? first : nil }
        let ordered = parts.sorted { ($0.part ?? 0) < ($1.part ?? 0) }
        guard ordered.map({ $0.part ?? 0 }) == Array(1...count) else { return nil }
        var data: [String: JSONObject] = [:]
        var arrays: [String: [JSONObject]] = [:]
        for part in ordered {
            for (key, value) in part.data {
                if case .array(let more) = value { arrays[key, default: []] += more } else { data[key] = value }
            }
        }
        for (key, items) in arrays { data[key] = .array(items) }
        return PrivacyExport(requestId: first.requestId, deviceId: first.deviceId, service: first.service, ts: first.ts, data: data)
    }
}
