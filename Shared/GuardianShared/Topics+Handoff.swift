extension Topics {
    /// `guardian/services/{service}/{instanceId}/handoff/{deviceId}`: retained, what the instance held
    /// about a device that another shard now owns; the owner clears it once taken in (`ShardHandoff`).
    public func handoff(_ service: String, _ instanceId: String, _ deviceId: String) -> String {
        "\(prefix)/services/\(service)/\(instanceId)/handoff/\(deviceId)"
    }

    /// Every instance's hand-offs of one service.
    public func handoffs(_ service: String) -> String { "\(prefix)/services/\(service)/+/handoff/+" }

    /// The presence of every instance of one service.
    public func presences(_ service: String) -> String { "\(prefix)/services/\(service)/+" }
}
