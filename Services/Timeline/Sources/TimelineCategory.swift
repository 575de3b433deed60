/// What a time slot was spent on, as the contract's timeline categories.
public enum TimelineCategory: String, Sendable, Codable, CaseIterable, Hashable {
    case sleep, work, food, commute, family, leisure, shopping, exercise, unknown

    /// The categories a slot can be labelled with: every one but `unknown`.
    public static let learnable: [TimelineCategory] = allCases.filter { $0 != .unknown }
}
