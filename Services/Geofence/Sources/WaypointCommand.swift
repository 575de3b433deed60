import Foundation
import GuardianShared

/// The OwnTracks `setWaypoints` command that lets a phone watch the nearest zones in hardware.
struct WaypointCommand: Encodable {
    struct Waypoints: Encodable {
        let _type = "waypoints"
        let waypoints: [Waypoint]
    }

    struct Waypoint: Encodable {
        let _type = "waypoint"
        let desc: String
        let lat: Double
        let lon: Double
        let rad: Int
        /// OwnTracks identifies a waypoint by its creation time: a stable value per zone id.
        let tst: Int
        let rid: String
    }

    let _type = "cmd"
    let action = "setWaypoints"
    let waypoints: Waypoints

    init(zones: [(id: String, zone: DangerZone)]) {
        waypoints = Waypoints(
            waypoints: zones.map { entry in
                Waypoint(
                    desc: entry.zone.name, lat: entry.zone.lat, lon: entry.zone.lon, rad: Int(entry.zone.radius.rounded()),
                    tst: 1_500_000_000 + Int(Shard.fnv1a(entry.id) % 100_000_000), rid: entry.id)
            })
    }
}
