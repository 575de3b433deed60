import CMosquitto
import Foundation
import Logging

/// libmosquitto's callbacks, run on the network thread, routed to the connection in the user data.
extension MQTTConnection {
    static func from(_ userData: UnsafeMutableRawPointer?) -> MQTTConnection? {
        userData.map { Unmanaged<MQTTConnection>.fromOpaque($0).takeUnretainedValue() }
    }

    func installCallbacks() {
        mosquitto_connect_v5_callback_set(handle) { _, userData, rc, flags, _ in
            MQTTConnection.from(userData)?.didConnect(reasonCode: rc, sessionPresent: flags & 1 == 1)
        }
        mosquitto_disconnect_v5_callback_set(handle) { _, userData, rc, _ in
            MQTTConnection.from(userData)?.didDisconnect(reasonCode: rc)
        }
        mosquitto_publish_v5_callback_set(handle) { _, userData, mid, reasonCode, _ in
            MQTTConnection.from(userData)?.didAcknowledge(mid: mid, reasonCode: reasonCode)
        }
        mosquitto_subscribe_v5_callback_set(handle) { _, userData, mid, count, granted, _ in
            let first = (count > 0 && granted != nil) ? granted![0] : 0x80
            MQTTConnection.from(userData)?.didSubscribe(mid: mid, grantedOrReason: first)
        }
        mosquitto_message_v5_callback_set(handle) { _, userData, message, properties in
            guard let message, let connection = MQTTConnection.from(userData) else { return }
            connection.didReceive(message.pointee, properties: properties)
        }
    }

    func didConnect(reasonCode: Int32, sessionPresent: Bool) {
        packetsSeen.add(1, ordering: .relaxed)
        guard reasonCode == 0 else {
            let refusal = MQTTError.connectionRefused(reasonCode: reasonCode)
            logger.error("broker refused the connection", metadata: ["mqtt.error": "\(refusal)", "mqtt.client": "\(configuration.clientId)"])
            let waiters = state.withLock { s in
                s.refusal = refusal
                defer { s.connectWaiters = [:] }
                return Array(s.connectWaiters.values)
            }
            waiters.forEach { $0.resume(returning: .failure(refusal)) }
            return
        }
        let (waiters, ids) = state.withLock { s in
            s.connected = true
            s.sessionPresent = sessionPresent
            s.refusal = nil
            s.statistics.connects += 1
            defer { s.connectWaiters = [:] }
            return (Array(s.connectWaiters.values), Array(s.registrations.keys).sorted())
        }
        logger.info(
            "connected to MQTT broker",
            metadata: ["mqtt.broker": "\(configuration.host):\(configuration.port)", "mqtt.client": "\(configuration.clientId)", "mqtt.session_present": "\(sessionPresent)"])
        for id in ids { sendSubscribe(id: id) }
        connackRead.store(true, ordering: .relaxed)
        releaseHeldPublishes()
        waiters.forEach { $0.resume(returning: .success(())) }
    }

    func didDisconnect(reasonCode: Int32) {
        state.withLock { s in
            // The first report of a disconnection (the broker's reason); libmosquitto may report the closed socket after it.
            if s.connected { s.disconnectReason = reasonCode }
            s.connected = false
        }
        if reasonCode != 0 {
            logger.debug("disconnected from MQTT broker", metadata: ["mqtt.reason": "\(reasonCode)"])
        }
    }

    func didAcknowledge(mid: Int32, reasonCode: Int32) {
        packetsSeen.add(1, ordering: .relaxed)
        let (completion, topic) = state.withLock { s in
            let completion = s.pendingPublishes.removeValue(forKey: mid)
            if completion != nil { s.statistics.acknowledged += 1 }
            return (completion, s.publishTopics.removeValue(forKey: mid))
        }
        guard let completion else { return }
        if reasonCode >= 0x80 {
            completion(.failure(.publishRefused(topic: topic ?? "?", reasonCode: reasonCode)))
        } else {
            completion(.success(()))
        }
    }

    func didSubscribe(mid: Int32, grantedOrReason: Int32) {
        packetsSeen.add(1, ordering: .relaxed)
        let (waiter, registration) = state.withLock { s -> (CheckedContinuation<Result<Void, MQTTError>, Never>?, Registration?) in
            guard let id = s.pendingSubacks.removeValue(forKey: mid) else { return (nil, nil) }
            return (s.subackWaiters.removeValue(forKey: id), s.registrations[id])
        }
        if grantedOrReason >= 0x80 {
            let filter = registration?.filter ?? "?"
            logger.error("broker refused subscription", metadata: ["mqtt.filter": "\(filter)", "mqtt.reason": "\(grantedOrReason)"])
            waiter?.resume(returning: .failure(.subscriptionRefused(filter: filter, reasonCode: grantedOrReason)))
        } else {
            waiter?.resume(returning: .success(()))
        }
    }

    func didReceive(_ raw: mosquitto_message, properties list: OpaquePointer?) {
        packetsSeen.add(1, ordering: .relaxed)
        let topic = raw.topic.map { String(cString: $0) } ?? ""
        let payload = raw.payloadlen > 0 && raw.payload != nil ? Data(bytes: raw.payload, count: Int(raw.payloadlen)) : Data()
        let (properties, identifiers) = MQTTPropertyList.read(list)
        let message = MQTTMessage(
            topic: topic, payload: payload, qos: MQTTQoS(rawValue: raw.qos) ?? .atLeastOnce, retain: raw.retain,
            properties: properties, subscriptionIdentifiers: identifiers)
        let (targets, matched) = state.withLock { s -> ([Delivery], Bool) in
            s.statistics.received += 1
            let matching: [(UInt32, Registration)] =
                configuration.routesByTopic
                ? s.registrations.filter { TopicFilter.matches($0.value.filter, topic: topic) }.min { $0.key < $1.key }.map { [($0.key, $0.value)] } ?? []
                : identifiers.isEmpty
                ? s.registrations.filter { TopicFilter.matches($0.value.filter, topic: topic) }.map { ($0.key, $0.value) }
                : s.registrations(sharingFilterWith: identifiers)
            var immediate: [Delivery] = []
            for (id, registration) in matching {
                if case .burstHandler = registration.delivery {
                    s.burst.append((id, message))  // delivered at the end of the read burst
                } else {
                    immediate.append(registration.delivery)
                }
            }
            return (immediate, !matching.isEmpty)
        }
        if !matched {
            logger.debug("message with no local subscription", metadata: ["mqtt.topic": "\(topic)"])
        }
        for target in targets {
            switch target {
            case .stream(let continuation): continuation.yield(message)
            case .handler(let handler): handler(message)
            case .burstHandler: break
            }
        }
    }
}
