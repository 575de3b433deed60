import Foundation
import GuardianShared
import GuardianTestSupport
import MQTT
import Testing

extension KillTests {
    /// Devices walk in and out of their own zone: each visit is a fix inside (enter), one 6 minutes
    /// later still inside (dwell, default 5 minutes) and one outside (exit), so every fix gives
    /// exactly one geofence event, whose id is a function of device, zone, type and time.
    @Test("geofence killed with SIGKILL mid-stream: every visit's enter, dwell and exit, none lost, none doubled by id")
    func geofence() async throws {
        try #require(FaultHarness.built("geofence"))
        let broker = try TestBroker()
        let data = try TemporaryDirectory()
        let observer = try await broker.connectedClient("observer")
        let devices = 8, visits = 150
        let start: Int64 = 1_795_000_000_000
        for d in 0..<devices {
            let zone = DangerZone(name: "Shop \(d)", lat: 10 + Double(d) * 0.1, lon: 10, radius: 100)
            try await observer.publish("guardian/zones/zone-\(d)", payload: GuardianJSON.encode(zone), retain: true)
        }
        // The stream, interleaved across devices, and the geofence event each fix must give.
        var stream: [MQTTOutgoing] = []
        var expected: Set<String> = []
        for v in 0..<visits {
            for (step, type) in [(0, GeofenceEvent.Kind.enter), (360, .dwell), (420, .exit)] {
                for d in 0..<devices {
                    let ts = Timestamp(milliseconds: start + Int64(v * 600 + step) * 1000)
                    let lat = 10 + Double(d) * 0.1 + (type == .exit ? 0.01 : 0)
                    let event = DeviceEvent(id: "f-\(d)-\(v)-\(step)", deviceId: "dev-\(d)", ts: ts, receivedAt: ts, body: Location(lat: lat, lon: 10, acc: 10))
                    stream.append(MQTTOutgoing(topic: "guardian/events/dev-\(d)/location", payload: GuardianJSON.encode(event)))
                    expected.insert(GeofenceEvent.makeId(deviceId: "dev-\(d)", zoneId: "zone-\(d)", type: type, ts: ts, source: .server))
                }
            }
        }
        let events = try await Tally(observer, "guardian/geofence/+")
        var geofence = try await FaultHarness.start("geofence", broker: broker, data: data.url, observer: observer)
        let source = try await broker.connectedClient("ingest-stand-in")
        let sender = StreamSender(stream, with: source, perSecond: 2000, holding: true)

        let kill = try await FaultHarness.killMidStream(geofence, sender: sender, outputs: events, expected: expected.count) {
            try await FaultHarness.start("geofence", broker: broker, data: data.url, observer: observer)
        }
        geofence = kill.restarted
        kill.at.expectMidStream(inputs: stream.count, outputs: expected.count)
        let missing = expected.subtracting(events.keys), extra = events.keys.subtracting(expected)
        #expect(missing.count == 0, "\(missing.count) geofence events lost")
        #expect(extra.count == 0, "\(extra.count) geofence events that no visit explains (a visit entered or left twice)")
        // At-least-once across a crash: the outbox republishes, with the same id, what the broker had
        // not acknowledged or the service had not yet cleared (it clears every 200 ms); consumers drop
        // repeats by id. At this stream's rate that is a few hundred at most, not a replay of the stream.
        #expect(events.repeats < 1000, "\(events.repeats) repeats")

        geofence.kill()
        await source.shutdown()
        await observer.shutdown()
        broker.stop()
    }
}
