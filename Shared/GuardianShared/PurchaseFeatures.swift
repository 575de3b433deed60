/// The six inputs of the purchase-regret model, in the model's order.
public struct PurchaseFeatures: Codable, Sendable, Equatable {
    public static let names = [
        "distanceToMerchant", "hourOfDay", "isWeekend", "budgetUtilization", "merchantRegretRate", "dwellTime",
    ]

    /// Kilometres from the fix to the zone's centre.
    public var distanceToMerchant: Double
    /// Local hour, 0-23.
    public var hourOfDay: Double
    /// 1 on a local Saturday or Sunday, else 0.
    public var isWeekend: Double
    /// Latest budget utilization, [0, 1].
    public var budgetUtilization: Double
    /// The zone's regret rate, [0, 1].
    public var merchantRegretRate: Double
    /// Minutes inside the zone.
    public var dwellTime: Double

    public init(
        distanceToMerchant: Double, hourOfDay: Double, isWeekend: Double, budgetUtilization: Double, merchantRegretRate: Double,
        dwellTime: Double
    ) {
        self.distanceToMerchant = distanceToMerchant
        self.hourOfDay = hourOfDay
        self.isWeekend = isWeekend
        self.budgetUtilization = budgetUtilization
        self.merchantRegretRate = merchantRegretRate
        self.dwellTime = dwellTime
    }

    /// In the model's order.
    public var vector: [Double] { [distanceToMerchant, hourOfDay, isWeekend, budgetUtilization, merchantRegretRate, dwellTime] }

    public init(vector: [Double]) throws(ContractViolation) {
        guard vector.count == 6 else { throw ContractViolation(field: "features", "needs 6 numbers in the order \(Self.names.joined(separator: ", ")), got \(vector.count)") }
        self.init(
            distanceToMerchant: vector[0], hourOfDay: vector[1], isWeekend: vector[2], budgetUtilization: vector[3],
            merchantRegretRate: vector[4], dwellTime: vector[5])
        try validate()
    }

    enum CodingKeys: String, CodingKey { case distanceToMerchant, hourOfDay, isWeekend, budgetUtilization, merchantRegretRate, dwellTime }

    /// Reads an object with the six names, or an array of six numbers in the model's order.
    public init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var values: [Double] = []
            while !array.isAtEnd {
                guard values.count < 7 else { break }
                values.append(try array.decode(Double.self))
            }
            try self.init(vector: values)
            return
        }
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            distanceToMerchant: try c.number(.distanceToMerchant, in: 0...20_040), hourOfDay: try c.number(.hourOfDay, in: 0...23),
            isWeekend: try c.number(.isWeekend, in: 0...1), budgetUtilization: try c.number(.budgetUtilization, in: 0...1),
            merchantRegretRate: try c.number(.merchantRegretRate, in: 0...1), dwellTime: try c.number(.dwellTime, in: 0...100_000))
    }

    func validate() throws(ContractViolation) {
        let ranges: [(String, Double, ClosedRange<Double>)] = [
            ("distanceToMerchant", distanceToMerchant, 0...20_040), ("hourOfDay", hourOfDay, 0...23), ("isWeekend", isWeekend, 0...1),
            ("budgetUtilization", budgetUtilization, 0...1), ("merchantRegretRate", merchantRegretRate, 0...1),
            ("dwellTime", dwellTime, 0...100_000),
        ]
        for (name, value, range) in ranges where !(value.isFinite && range.contains(value)) {
            throw ContractViolation(field: "features.\(name)", "must be in [\(range.lowerBound), \(range.upperBound)], got \(value)")
        }
    }
}

/// How worried to be about a probability: `high` from 0.85, `medium` from 0.70, else `low`.
public enum RiskLevel: String, Codable, Sendable, CaseIterable {
    case low, medium, high

    public init(probability: Double) {
        if probability >= 0.85 {
            self = .high
        } else if probability >= 0.70 {
            self = .medium
        } else {
            self = .low
        }
    }
}
