/// The contract's rule for free text fields (names, ids, messages): not empty, at most `maxLength`
/// UTF-8 bytes, no control characters.
public enum ContractText {
    /// What is wrong with `value`, worded for an error report; nil when it follows the rule.
    public static func problem(_ value: String, maxLength: Int) -> String? {
        if value.isEmpty { return "must not be empty" }
        if value.utf8.count > maxLength { return "must be at most \(maxLength) bytes, got \(value.utf8.count)" }
        if value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { return "must not contain control characters" }
        return nil
    }
}
