import GuardianShared

/// An OwnTracks JSON message (`_type` `location`, `transition` or `lwt`) mapped to Guardian events.
/// Field names are OwnTracks' own: `tst` epoch seconds, `vel` km/h, `cog`, `batt` %, `bs`, `conn`.
enum OwnTracksMessage {
    case location(ts: Timestamp, location: Location, state: DeviceState?, motion: Motion?)
    case transition(ts: Timestamp, PhoneTransition)
    case lastWill(ts: Timestamp?)
    /// Another `_type` (waypoints, card, status, …): valid OwnTracks traffic Guardian does not use.
    case ignored(type: String)

    static func decode(from decoder: any Decoder, origin: OwnTracksOrigin?) throws -> OwnTracksMessage {
        let c = try decoder.container(keyedBy: AnyKey.self)
        let type = try c.decode(String.self, forKey: AnyKey("_type"))
        switch type {
        case "location":
            let ts = try c.decode(Timestamp.self, forKey: AnyKey("tst"))
            let location = Location(
                lat: try c.number(AnyKey("lat"), in: -90...90),
                lon: try c.number(AnyKey("lon"), in: -180...180),
                acc: try c.optionalNumber(AnyKey("acc"), in: 0...1e7),
                alt: try c.optionalNumber(AnyKey("alt"), in: -1e5...1e6),
                speed: try c.optionalNumber(AnyKey("vel"), in: 0...1e5).map { $0 / 3.6 },
                course: try c.optionalNumber(AnyKey("cog"), in: 0...360).map { $0.truncatingRemainder(dividingBy: 360) },
                ownTracks: origin)
            var state = DeviceState(
                batteryLevel: try c.optionalNumber(AnyKey("batt"), in: 0...100).map { $0 / 100 },
                batteryState: try c.optionalNumber(AnyKey("bs"), in: 0...3).map { batteryState(Int($0)) },
                network: try c.optionalText(AnyKey("conn"), maxLength: 8).flatMap(network))
            if state.isEmpty { state = DeviceState() }
            let activities = (try? c.decodeIfPresent([String].self, forKey: AnyKey("motionactivities"))) ?? nil
            let motion = activities?.lazy.compactMap { Motion.Activity(rawValue: $0) }.first { $0 != .unknown }.map { Motion(activity: $0) }
            return .location(ts: ts, location: location, state: state.isEmpty ? nil : state, motion: motion)
        case "transition":
            let ts = try c.decode(Timestamp.self, forKey: AnyKey("tst"))
            let event = try c.choice(AnyKey("event"), PhoneTransition.Event.self)
            return .transition(
                ts: ts,
                PhoneTransition(
                    event: event, desc: try c.optionalText(AnyKey("desc")), rid: try c.optionalText(AnyKey("rid"), maxLength: 128),
                    lat: try c.number(AnyKey("lat"), in: -90...90), lon: try c.number(AnyKey("lon"), in: -180...180),
                    acc: try c.optionalNumber(AnyKey("acc"), in: 0...1e7),
                    wtst: try c.decodeIfPresent(Timestamp.self, forKey: AnyKey("wtst")),
                    trigger: try c.optionalText(AnyKey("t"), maxLength: 8)))
        case "lwt":
            return .lastWill(ts: try c.decodeIfPresent(Timestamp.self, forKey: AnyKey("tst")))
        default:
            return .ignored(type: String(type.prefix(32)))
        }
    }

    private static func batteryState(_ code: Int) -> DeviceState.BatteryState {
        switch code {
        case 1: return .unplugged
        case 2: return .charging
        case 3: return .full
        default: return .unknown
        }
    }

    private static func network(_ conn: String) -> DeviceState.Network? {
        switch conn {
        case "w": return .wifi
        case "m": return .cellular
        case "o": return DeviceState.Network.none
        default: return nil
        }
    }
}

/// Decodable wrapper so `JSONDecoder` can produce an `OwnTracksMessage`; the topic's user and device
/// come in through `userInfo[.ownTracksOrigin]`.
struct OwnTracksEnvelope: Decodable {
    var message: OwnTracksMessage
    init(from decoder: any Decoder) throws {
        message = try OwnTracksMessage.decode(from: decoder, origin: decoder.userInfo[.ownTracksOrigin] as? OwnTracksOrigin)
    }
}

extension CodingUserInfoKey {
    static let ownTracksOrigin = CodingUserInfoKey(rawValue: "guardian.ownTracksOrigin")!
}
