import Foundation
import GuardianShared
import Testing

/// Decodes `json` as `T` and returns the violation's text, or nil when it decodes.
func violation<T: Decodable>(_ type: T.Type, _ json: String) -> String? {
    do {
        _ = try JSONDecoder().decode(T.self, from: Data(json.utf8))
        return nil
    } catch {
        return ContractViolation.from(error).description
    }
}

@Suite("Contract types: every rule, good and bad")
struct ContractTypeTests {
    @Test func location() throws {
        let good = try JSONDecoder().decode(Location.self, from: Data(#"{"lat": 48.85, "lon": 2.35, "acc": 12, "alt": 35, "speed": 1.2, "course": 359.9, "extra": [1]}"#.utf8))
        #expect(good == Location(lat: 48.85, lon: 2.35, acc: 12, alt: 35, speed: 1.2, course: 359.9))
        #expect(violation(Location.self, #"{"lat": 90, "lon": -180}"#) == nil)
        #expect(violation(Location.self, #"{"lat": 91, "lon": 0}"#) == "lat: must be in [-90, 90], got 91")
        #expect(violation(Location.self, #"{"lat": 0, "lon": -180.5}"#) == "lon: must be in [-180, 180], got -180.5")
        #expect(violation(Location.self, #"{"lat": 0, "lon": 0, "acc": -1}"#) == "acc: must be in [0, 10000000], got -1")
        #expect(violation(Location.self, #"{"lat": 0, "lon": 0, "speed": -0.1}"#)?.hasPrefix("speed: must be in") == true)
        #expect(violation(Location.self, #"{"lat": 0, "lon": 0, "course": 360}"#) == "course: must be below 360, got 360")
        #expect(violation(Location.self, #"{"lon": 0}"#) == "lat: required field is missing")
        #expect(violation(Location.self, #"{"lat": "48.8", "lon": 0}"#) == "lat: expected a number")
        #expect(violation(Location.self, #"{"lat": null, "lon": 0}"#) == "lat: expected a number, got null")
        #expect(violation(Location.self, #"{"lat": 1e999, "lon": 0}"#) != nil)
    }

    @Test func motion() {
        #expect(violation(Motion.self, #"{"activity": "walking", "confidence": "high"}"#) == nil)
        #expect(violation(Motion.self, #"{"activity": "flying"}"#) == #"activity: must be one of stationary, walking, running, cycling, automotive, unknown, got "flying""#)
        #expect(violation(Motion.self, #"{"activity": "walking", "confidence": "sure"}"#)?.hasPrefix("confidence: must be one of low, medium, high") == true)
        #expect(violation(Motion.self, #"{"confidence": "low"}"#) == "activity: required field is missing")
    }

    @Test func health() {
        #expect(violation(HealthMetrics.self, #"{"heartRate": 62, "steps": 1200, "vo2Max": 41.5}"#) == nil)
        #expect(violation(HealthMetrics.self, #"{"steps": -3}"#)?.hasPrefix("steps: must be in [0") == true)
        #expect(violation(HealthMetrics.self, #"{"steps": 10.5}"#) == "steps: must be a whole number, got 10.5")
        #expect(violation(HealthMetrics.self, #"{"heartRate": "fast"}"#) == "heartRate: expected a number")
    }

    @Test func deviceState() {
        #expect(violation(DeviceState.self, #"{"batteryLevel": 0.5, "batteryState": "charging", "lowPowerMode": false, "thermalState": "fair", "network": "none", "diskFree": 1e9, "memoryUsage": 0.4}"#) == nil)
        #expect(violation(DeviceState.self, #"{"batteryLevel": 1.5}"#) == "batteryLevel: must be in [0, 1], got 1.5")
        #expect(violation(DeviceState.self, #"{"thermalState": "hot"}"#)?.hasPrefix("thermalState: must be one of nominal") == true)
        #expect(violation(DeviceState.self, #"{"network": "5g"}"#)?.hasPrefix("network: must be one of wifi, cellular, none") == true)
        #expect(violation(DeviceState.self, #"{"lowPowerMode": "yes"}"#) == "lowPowerMode: expected true or false")
        #expect(violation(DeviceState.self, #"{"memoryUsage": -0.1}"#) != nil)
    }

    @Test func budget() throws {
        let decoder = JSONDecoder()
        #expect(try decoder.decode(Budget.self, from: Data(#"{"utilization": 0.4}"#.utf8)).utilization == 0.4)
        #expect(try decoder.decode(Budget.self, from: Data(#"{"spent": 150, "limit": 200}"#.utf8)).utilization == 0.75)
        let over = try decoder.decode(Budget.self, from: Data(#"{"spent": 300, "limit": 200}"#.utf8))
        #expect(over.utilization == 1 && over.spent == 300 && over.limit == 200)
        #expect(violation(Budget.self, #"{"utilization": 1.2}"#) == "utilization: must be in [0, 1], got 1.2")
        #expect(violation(Budget.self, #"{"spent": 10, "limit": 0}"#) == "limit: must be greater than 0")
        #expect(violation(Budget.self, #"{"spent": 10}"#) == "needs utilization, or spent and limit")
        #expect(violation(Budget.self, #"{"spent": -1, "limit": 10}"#) != nil)
    }

    @Test func usage() {
        #expect(violation(AppUsage.self, #"{"app": "Roblox", "category": "games", "seconds": 600}"#) == nil)
        #expect(violation(AppUsage.self, #"{"app": "", "seconds": 1}"#) == "app: must not be empty")
        #expect(violation(AppUsage.self, #"{"app": "x", "category": "news", "seconds": 1}"#)?.hasPrefix("category: must be one of games") == true)
        #expect(violation(AppUsage.self, #"{"app": "x", "seconds": -1}"#) != nil)
        #expect(violation(AppUsage.self, "{\"app\": \"a\\u0000b\", \"seconds\": 1}") == "app: must not contain control characters")
    }

    @Test func profile() {
        #expect(violation(DeviceProfile.self, #"{"timezone": "Europe/Paris", "role": "child", "name": "Sam"}"#) == nil)
        #expect(violation(DeviceProfile.self, #"{"timezone": "Mars/Olympus", "role": "child"}"#) == #"timezone: unknown IANA time zone "Mars/Olympus""#)
        #expect(violation(DeviceProfile.self, #"{"timezone": "UTC", "role": "boss"}"#)?.hasPrefix("role: must be one of adult, parent, child") == true)
    }

    @Test func snapshot() throws {
        let decoder = JSONDecoder()
        let full = try decoder.decode(
            SensorSnapshot.self,
            from: Data(#"{"location": {"lat": 1, "lon": 2}, "activity": "walking", "health": {"steps": 5}, "state": {"batteryLevel": 0.9}}"#.utf8))
        #expect(full.location == Location(lat: 1, lon: 2))
        #expect(full.motion == Motion(activity: .walking))
        #expect(full.health?.steps == 5)
        #expect(full.state?.batteryLevel == 0.9)
        let object = try decoder.decode(SensorSnapshot.self, from: Data(#"{"activity": {"activity": "running", "confidence": "low"}}"#.utf8))
        #expect(object.motion == Motion(activity: .running, confidence: .low))
        #expect(violation(SensorSnapshot.self, #"{"health": {}}"#) == "snapshot has no location, activity, health or state")
        #expect(violation(SensorSnapshot.self, #"{"location": {"lat": 100, "lon": 0}}"#) == "location.lat: must be in [-90, 90], got 100")
        #expect(violation(SensorSnapshot.self, #"{"activity": "teleporting"}"#)?.hasPrefix("activity: must be one of") == true)
    }

    @Test("a geofence event round-trips, and one out of range or with a bad id is refused")
    func geofenceEvent() throws {
        let event = GeofenceEvent(
            id: "e1", ts: Timestamp(rfc3339: "2026-11-21T22:30:00Z")!, deviceId: "phone", type: .dwell, zoneId: "z-1", zoneName: "Tech Store",
            merchant: nil, distance: 12.5, dwellSeconds: 300, location: .init(lat: 48.85, lon: 2.35, acc: 8), source: .server)
        #expect(try JSONDecoder().decode(GeofenceEvent.self, from: GuardianJSON.encode(event)) == event)
        func with(_ field: String, _ value: String) -> String {
            var fields = [
                "id": #""e1""#, "ts": "1795000000", "deviceId": #""phone""#, "type": #""enter""#, "zoneId": #""z""#, "zoneName": #""Z""#,
                "distance": "0", "dwellSeconds": "0", "location": #"{"lat": 0, "lon": 0}"#, "source": #""server""#,
            ]
            fields[field] = value
            return "{" + fields.map { #""\#($0.key)": \#($0.value)"# }.joined(separator: ", ") + "}"
        }
        #expect(violation(GeofenceEvent.self, with("distance", "0")) == nil)
        #expect(violation(GeofenceEvent.self, with("distance", "-1")) == "distance: must be in [0, 20040000], got -1")
        #expect(violation(GeofenceEvent.self, with("dwellSeconds", "1e300"))?.hasPrefix("dwellSeconds: must be in [0, 31536000]") == true)
        #expect(violation(GeofenceEvent.self, with("location", #"{"lat": 91, "lon": 0}"#)) == "location.lat: must be in [-90, 90], got 91")
        #expect(violation(GeofenceEvent.self, with("deviceId", #""a/b""#))?.hasPrefix("deviceId:") == true)
        #expect(violation(GeofenceEvent.self, with("zoneId", ##""#""##))?.hasPrefix("zoneId:") == true)
        #expect(violation(GeofenceEvent.self, with("id", #""x y""#)) == "id: is not a valid event id")
        #expect(violation(GeofenceEvent.self, with("type", #""leave""#))?.hasPrefix("type: must be one of enter, exit, dwell") == true)
        #expect(violation(GeofenceEvent.self, with("zoneName", #""""#)) == "zoneName: must not be empty")
    }

    @Test func normalisedEventIsFlatAndRoundTrips() throws {
        let event = DeviceEvent(
            id: "e1", deviceId: "phone-1", ts: Timestamp(rfc3339: "2026-11-22T07:10:22+01:00")!,
            receivedAt: Timestamp(milliseconds: 1_795_000_000_123), body: Location(lat: 1.5, lon: -2, acc: 5))
        let data = try GuardianJSON.encoder().encode(event)
        #expect(
            String(decoding: data, as: UTF8.self)
                == #"{"acc":5,"deviceId":"phone-1","id":"e1","lat":1.5,"lon":-2,"receivedAt":"2026-11-18T11:06:40.123Z","ts":"2026-11-22T06:10:22.000Z"}"#)
        let back = try JSONDecoder().decode(DeviceEvent<Location>.self, from: data)
        #expect(back.body == event.body && back.id == "e1" && back.ts == event.ts && back.receivedAt == event.receivedAt)
        #expect(violation(DeviceEvent<Location>.self, #"{"id":"e","deviceId":"a/b","ts":1795000000,"receivedAt":1795000000,"lat":0,"lon":0}"#) != nil)
    }

    @Test func errorReportEscapesTheExcerpt() throws {
        let payload = Data([0x7B, 0x22, 0x5C, 0x00, 0xFF, 0x0A]) + Data(repeating: 0x41, count: 400)
        let report = ErrorReport(service: "ingest", topic: "t/1", reason: "bad", payload: payload)
        #expect(report.excerpt.hasPrefix(#"{"\x5c\x00\xff\x0aAAA"#))
        #expect(report.excerpt.count == 6 * 1 + 4 * 3 + 250 - 2 + 2)
        let json = try JSONSerialization.jsonObject(with: GuardianJSON.encode(report)) as? [String: Any]
        #expect(Set(json?.keys.map { $0 } ?? []) == ["ts", "service", "topic", "reason", "excerpt"])
    }
}

@Suite("Configuration from the environment")
struct ConfigurationTests {
    @Test func defaults() throws {
        let config = try GuardianConfig(environment: [:])
        #expect(config.mqttURL == "mqtt://127.0.0.1:1883")
        #expect(config.topicPrefix == "guardian")
        #expect(config.shard == Shard(index: 0, count: 1))
        #expect(config.maxPayloadBytes == 262_144)
        #expect(config.statsInterval == .seconds(10))
        let mqtt = try config.mqttConfiguration(service: "ingest", will: nil)
        #expect(mqtt.username == "ingest" && mqtt.cleanStart == false && mqtt.clientId.hasPrefix("ingest-"))
    }

    @Test func overrides() throws {
        let config = try GuardianConfig(environment: [
            "GUARDIAN_MQTT_URL": "mqtts://svc:pw@broker:8884", "GUARDIAN_SHARD": "2/4", "GUARDIAN_INSTANCE_ID": "a1",
            "GUARDIAN_LOG_LEVEL": "DEBUG", "GUARDIAN_MAX_PAYLOAD_BYTES": "4096", "GUARDIAN_TOPIC_PREFIX": "test/g",
        ])
        let mqtt = try config.mqttConfiguration(service: "geofence", will: nil)
        #expect(mqtt.host == "broker" && mqtt.port == 8884 && mqtt.useTLS && mqtt.username == "svc" && mqtt.password == "pw")
        #expect(mqtt.clientId == "geofence-a1")
        #expect(config.shard == Shard(index: 2, count: 4) && config.logLevel == .debug && config.maxPayloadBytes == 4096)
        #expect(Topics(prefix: config.topicPrefix).event("d", .location) == "test/g/events/d/location")
    }

    @Test(arguments: [
        ["GUARDIAN_SHARD": "4/4"], ["GUARDIAN_LOG_LEVEL": "loud"], ["GUARDIAN_MAX_PAYLOAD_BYTES": "abc"],
        ["GUARDIAN_INSTANCE_ID": "a/b"], ["GUARDIAN_TOPIC_PREFIX": "g/#"], ["GUARDIAN_STATS_INTERVAL": "0"],
    ])
    func rejectsBadValues(environment: [String: String]) {
        #expect(throws: ConfigurationError.self) { try GuardianConfig(environment: environment) }
    }
}
