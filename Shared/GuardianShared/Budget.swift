/// How much of the spending budget is used (`budget` kind): `utilization` in [0, 1], or computed
/// from `spent` / `limit` (clamped to 1 when over budget; `spent` and `limit` are kept).
public struct Budget: EventBody, Equatable {
    public static let kind = EventKind.budget
    public var utilization: Double
    public var spent: Double?
    public var limit: Double?

    public init(utilization: Double, spent: Double? = nil, limit: Double? = nil) {
        self.utilization = utilization
        self.spent = spent
        self.limit = limit
    }

    enum CodingKeys: String, CodingKey { case utilization, spent, limit }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        spent = try c.optionalNumber(.spent, in: 0...1e15)
        limit = try c.optionalNumber(.limit, in: 0...1e15)
        if let given = try c.optionalNumber(.utilization, in: 0...1) {
            utilization = given
        } else if let spent, let limit {
            guard limit > 0 else { throw ContractViolation(path: c.codingPath + [CodingKeys.limit], "must be greater than 0") }
            utilization = min(1, spent / limit)
        } else {
            throw ContractViolation(path: c.codingPath, "needs utilization, or spent and limit")
        }
    }
}
