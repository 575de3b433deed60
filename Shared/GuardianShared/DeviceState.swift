/// Battery, power, thermal and network state of a device (`state` kind).
public struct DeviceState: EventBody, Equatable {
    public enum BatteryState: String, Codable, CaseIterable, Sendable { case unknown, unplugged, charging, full }
    public enum ThermalState: String, Codable, CaseIterable, Sendable { case nominal, fair, serious, critical }
    public enum Network: String, Codable, CaseIterable, Sendable { case wifi, cellular, none }

    public static let kind = EventKind.state
    /// Charge, [0, 1].
    public var batteryLevel: Double?
    public var batteryState: BatteryState?
    public var lowPowerMode: Bool?
    public var thermalState: ThermalState?
    public var network: Network?
    /// Free disk space in bytes.
    public var diskFree: Double?
    /// Fraction of memory in use, [0, 1].
    public var memoryUsage: Double?

    public init(
        batteryLevel: Double? = nil, batteryState: BatteryState? = nil, lowPowerMode: Bool? = nil,
        thermalState: ThermalState? = nil, network: Network? = nil, diskFree: Double? = nil, memoryUsage: Double? = nil
    ) {
        self.batteryLevel = batteryLevel
        self.batteryState = batteryState
        self.lowPowerMode = lowPowerMode
        self.thermalState = thermalState
        self.network = network
        self.diskFree = diskFree
        self.memoryUsage = memoryUsage
    }

    enum CodingKeys: String, CodingKey { case batteryLevel, batteryState, lowPowerMode, thermalState, network, diskFree, memoryUsage }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        batteryLevel = try c.optionalNumber(.batteryLevel, in: 0...1)
        batteryState = try c.optionalChoice(.batteryState, BatteryState.self)
        lowPowerMode = try c.decodeIfPresent(Bool.self, forKey: .lowPowerMode)
        thermalState = try c.optionalChoice(.thermalState, ThermalState.self)
        network = try c.optionalChoice(.network, Network.self)
        diskFree = try c.optionalNumber(.diskFree, in: 0...1e18)
        memoryUsage = try c.optionalNumber(.memoryUsage, in: 0...1)
    }

    public var isEmpty: Bool { self == DeviceState() }
}
