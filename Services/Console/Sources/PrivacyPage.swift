import GuardianShared

/// A child's data (`privacy`, `erase` and `receipts` templates): download everything Guardian
/// holds as a file, or erase it everywhere after a confirmation (privacy requests as the parent,
/// answered by every running service).
enum PrivacyPage {
    /// The answers to an erase, one row a service instance.
    static func receipts(_ outcome: PrivacyExchange.Outcome, child: String) -> [String: Any] {
        let answers = (Array(outcome.receipts.keys) + outcome.missing).sorted().map { instance in
            let receipt = outcome.receipts[instance]
            let erased = receipt?.erased.map { $0.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") } ?? ""
            return [
                "service": "\(instance.service)/\(instance.instance)",
                "answer": receipt.map { $0.status == .done ? "done" : "refused: \($0.reason ?? "")" } ?? "no answer in time",
                "erased": erased.isEmpty ? "nothing held" : erased,
            ]
        }
        return ["child": child, "allDone": outcome.missing.isEmpty && outcome.refused.isEmpty && !outcome.receipts.isEmpty, "answers": answers]
    }
}
