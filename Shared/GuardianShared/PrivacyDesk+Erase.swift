import Foundation
import GRDB
import MQTT

extension PrivacyDesk {
    /// Erases everything about `deviceId` from the store (rows, the outbox's unsent messages about
    /// it, then the write-ahead log, truncated, so no page of it survives anywhere in the files),
    /// from memory, and from the broker's retained messages; leaves a tombstone. Returns the counts.
    func forget(_ deviceId: String) throws -> [String: Int] {
        guard let participant = participant else { return [:] }
        let now = clock.now()
        let (erased, retained) = try store.write { db in
            let retained = try participant.retainedTopics(about: deviceId, in: db)
            var erased = try participant.erase(deviceId: deviceId, in: db).filter { $0.value > 0 }
            let unsent = try Self.eraseOutbox(about: deviceId, in: db)
            if unsent > 0 { erased["outbox", default: 0] += unsent }
            try tombstones.add(deviceId, at: now, in: db)
            return (erased, retained)
        }
        tombstones.remember(deviceId, at: now)
        participant.erased(deviceId: deviceId)
        try truncateLog()
        for topic in retained {
            runtime.client.publish(MQTTOutgoing(topic: topic, payload: Data(), retain: true)) { _ in }
        }
        runtime.logger.notice("device erased", metadata: [LogKey.deviceId: "\(deviceId)", LogKey.count: "\(erased.values.reduce(0, +))"])
        return erased
    }

    /// Truncates the write-ahead log, trying again (for up to about 5 s) while another connection's
    /// checkpoint holds it: on a loaded machine that checkpoint can take a while.
    private func truncateLog(attempts: Int = 100) throws {
        var attempt = 1
        while true {
            do {
                try store.truncateLog()
                return
            } catch {
                guard attempt < attempts else { throw error }
                if attempt == 1 { runtime.logger.notice("write-ahead log busy, truncating again", metadata: [LogKey.error: "\(error)"]) }
                attempt += 1
                usleep(50_000)
            }
        }
    }

    /// Publishes what the store holds about the device on the requester's export topic: one
    /// message, or numbered parts when it would pass the broker's payload limit.
    func export(_ request: PrivacyRequest, requester: String) throws {
        guard let participant = participant else { return }
        let data = try store.read { db in try participant.export(deviceId: request.deviceId, in: db) }
        let export = PrivacyExport(requestId: request.id, deviceId: request.deviceId, service: runtime.service, ts: clock.now(), data: data)
        let topic = runtime.topics.privacyExport(requester, request.id, runtime.service, runtime.config.instanceId)
        for part in export.split() {
            runtime.client.publish(MQTTOutgoing(topic: topic, payload: GuardianJSON.encode(part))) { [runtime] result in
                if case .failure(let error) = result {
                    runtime.logger.error("an export message was refused", metadata: [LogKey.deviceId: "\(request.deviceId)", LogKey.error: "\(error)"])
                }
            }
        }
    }

    /// Messages staged in a `DurableOutbox` and not yet acknowledged that are about the device: its
    /// id is a level of the topic or a string in the payload.
    static func eraseOutbox(about deviceId: String, in db: Database) throws -> Int {
        guard try db.tableExists("outbox") else { return 0 }
        try db.execute(
            sql: """
                DELETE FROM outbox WHERE instr(topic || '/', '/' || ?1 || '/') > 0
                    OR instr(CAST(payload AS TEXT), '"' || ?1 || '"') > 0
                """, arguments: [deviceId])
        return db.changesCount
    }
}
