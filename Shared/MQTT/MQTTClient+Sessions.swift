import CMosquitto
import Logging

/// Taking over the persistent session of another client id, and leaving subscriptions at the broker
/// while keeping their handlers for what the session still holds.
extension MQTTClient {
    /// A client (not yet connected) on the session of `clientId`, e.g. a departed replica of the same
    /// service: this client's broker, credentials and session expiry, `cleanStart == false`, no will,
    /// no reconnection (a takeover by the owner ends it for good) and routing by topic (the session's
    /// queue carries the other client's subscription identifiers). It gets this client's handlers for
    /// the filters `adopting` selects, registered locally only: the session already holds those
    /// subscriptions, so nothing new is subscribed.
    public func adoptingSession(of clientId: String, handlersFor adopting: (String) -> Bool, logger: Logger) throws(MQTTError) -> MQTTClient {
        var configuration = configuration
        configuration.clientId = clientId
        configuration.cleanStart = false
        configuration.will = nil
        configuration.reconnects = false
        configuration.routesByTopic = true
        let adopted = try MQTTClient(configuration: configuration, logger: logger)
        adopted.connection.copyHandlers(of: connection, where: adopting)
        return adopted
    }

    /// Unsubscribes at the broker from the filters `selected` picks (on reconnect too) but keeps their
    /// handlers: what the session already queued for them is still handled. Returns the filters withdrawn.
    @discardableResult
    public func withdraw(where selected: (String) -> Bool) -> [String] {
        connection.withdraw(where: selected)
    }

    /// The filters of the registrations made so far.
    public var subscribedFilters: [String] { connection.state.withLock { $0.registrations.values.map(\.filter) } }

    /// The session-present flag of the latest CONNACK (nil before the first).
    public var sessionPresent: Bool? { connection.state.withLock { $0.sessionPresent } }

    /// The reason code of the latest disconnection: the broker's (0x8E when a broker says another
    /// connection took the session over; mosquitto 2.0 just closes the socket) or libmosquitto's `MOSQ_ERR_*`.
    public var disconnectReason: Int32? { connection.state.withLock { $0.disconnectReason } }

    /// True once a client that does not reconnect lost its connection (and before `shutdown`).
    public var hasEnded: Bool { connection.hasEnded }
}

extension MQTTConnection {
    /// Registers, locally only, the handler subscriptions of `other` whose filters `selected` picks,
    /// and its burst scope.
    func copyHandlers(of other: MQTTConnection, where selected: (String) -> Bool) {
        let (registrations, scope) = other.state.withLock { s in
            (s.registrations.sorted { $0.key < $1.key }.map(\.value), s.burstScope)
        }
        state.withLock { s in
            s.burstScope = scope
            for registration in registrations where selected(registration.filter) {
                if case .stream = registration.delivery { continue }
                let id = s.nextSubscriptionId
                s.nextSubscriptionId += 1
                s.registrations[id] = registration
                s.localOnly.insert(id)
            }
        }
    }

    func withdraw(where selected: (String) -> Bool) -> [String] {
        let filters = state.withLock { s -> [String] in
            var filters: [String] = []
            for (id, registration) in s.registrations.sorted(by: { $0.key < $1.key }) where selected(registration.filter) {
                s.localOnly.insert(id)
                if !filters.contains(registration.filter) { filters.append(registration.filter) }
            }
            return filters
        }
        for filter in filters {
            state.withLock { _ in _ = mosquitto_unsubscribe_v5(handle, nil, filter, nil) }
        }
        wakeNetworkThread()
        return filters
    }
}
