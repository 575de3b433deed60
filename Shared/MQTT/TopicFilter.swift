/// MQTT topic-filter rules: matching with `+` and `#`, and `$share/{group}/` groups.
public enum TopicFilter {
    /// The filter without a `$share/{group}/` prefix: what the broker matches topics against.
    public static func matchingPart(of filter: String) -> Substring {
        guard filter.hasPrefix("$share/") else { return Substring(filter) }
        let rest = filter.dropFirst("$share/".count)
        guard let slash = rest.firstIndex(of: "/") else { return Substring(filter) }
        return rest[rest.index(after: slash)...]
    }

    /// True when `topic` matches `filter` (shared-subscription prefix ignored).
    public static func matches(_ filter: String, topic: String) -> Bool {
        let filterLevels = matchingPart(of: filter).split(separator: "/", omittingEmptySubsequences: false)
        let topicLevels = topic.split(separator: "/", omittingEmptySubsequences: false)
        // Wildcards at the first level never match topics starting with `$` (e.g. `$SYS`).
        if let first = topicLevels.first, first.hasPrefix("$"),
            let f = filterLevels.first, f == "+" || f == "#"
        {
            return false
        }
        var i = 0
        while i < filterLevels.count {
            let level = filterLevels[i]
            if level == "#" { return true }
            guard i < topicLevels.count else { return false }
            if level != "+" && level != topicLevels[i] { return false }
            i += 1
        }
        return i == topicLevels.count
    }

    /// True when `filter` is a syntactically valid subscription filter.
    public static func isValidFilter(_ filter: String) -> Bool {
        guard !filter.isEmpty, filter.utf8.count <= 65535 else { return false }
        let levels = matchingPart(of: filter).split(separator: "/", omittingEmptySubsequences: false)
        for (i, level) in levels.enumerated() {
            if level.contains("#") && (level != "#" || i != levels.count - 1) { return false }
            if level.contains("+") && level != "+" { return false }
        }
        return true
    }

    /// True when `topic` may be published to (no wildcards, not empty).
    public static func isValidTopic(_ topic: String) -> Bool {
        let bytes = topic.utf8
        guard !bytes.isEmpty, bytes.count <= 65535 else { return false }
        // Byte by byte: `String.contains` on a string goes through Foundation's NSString search.
        return !bytes.contains { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "#") || $0 == 0 }
    }
}
