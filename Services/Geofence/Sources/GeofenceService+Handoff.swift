import Foundation
import GuardianShared

/// What geofence hands to a device's new shard: the device's visits as memory holds them (the
/// store may lag by up to a minute of fixes that changed nothing).
struct GeofenceHandoff: Codable, Equatable {
    struct Point: Codable, Equatable {
        var lat: Double
        var lon: Double
    }

    struct Visit: Codable, Equatable {
        var enteredAt: Timestamp
        var dwellReported: Bool
    }

    var lastFix: Timestamp?
    var lastPosition: Point?
    var visits: [String: Visit]
    var waypointCenter: Point?
    var waypointZones: [String]
    var lastTransition: Timestamp?

    init(_ state: DeviceVisits) {
        lastFix = state.lastFix
        lastPosition = state.lastPosition.map { Point(lat: $0.lat, lon: $0.lon) }
        visits = state.visits.mapValues { Visit(enteredAt: $0.enteredAt, dwellReported: $0.dwellReported) }
        waypointCenter = state.waypointCenter.map { Point(lat: $0.lat, lon: $0.lon) }
        waypointZones = state.waypointZones
        lastTransition = state.lastTransition
    }

    var state: DeviceVisits {
        var state = DeviceVisits()
        state.lastFix = lastFix
        state.lastPosition = lastPosition.map { ($0.lat, $0.lon) }
        state.visits = visits.mapValues { DeviceVisits.Visit(enteredAt: $0.enteredAt, dwellReported: $0.dwellReported) }
        state.waypointCenter = waypointCenter.map { ($0.lat, $0.lon) }
        state.waypointZones = waypointZones
        state.savedFix = lastFix
        state.lastTransition = lastTransition
        return state
    }
}

extension GeofenceService: ShardHandoffParticipant {
    public func heldDevices() throws -> [String] {
        state.withLock { Array($0.devices.keys) }
    }

    public func holdsState(of deviceId: String) throws -> Bool {
        state.withLock { $0.devices[deviceId] != nil }
    }

    public func handoffState(of deviceId: String) throws -> Data? {
        state.withLock { $0.devices[deviceId] }.map { GuardianJSON.encode(GeofenceHandoff($0)) }
    }

    /// Keeps whichever state saw the later fix: the events held back for the device, replayed
    /// next, are then exactly those the state handed off has not seen.
    public func adopt(_ data: Data, deviceId: String) throws {
        let incoming = try JSONDecoder().decode(GeofenceHandoff.self, from: data).state
        try state.withLock { s in
            if let held = s.devices[deviceId], let heldFix = held.lastFix, heldFix >= (incoming.lastFix ?? heldFix) {
                runtime.counters.increment("handoffsOlderThanHeld")
                return
            }
            try store.store.write { db in try store.save(incoming, deviceId: deviceId, in: db) }
            s.devices[deviceId] = incoming
        }
    }
}
