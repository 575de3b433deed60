import Foundation
import GuardianShared
import MQTT

private struct Timed: Decodable { var ts: Timestamp }

/// `samples/day.jsonl`: a child's day of fixes and motion, as lines.
public enum SampleDay {
    public static var lines: [String] {
        let text = (try? String(contentsOf: TestBroker.repositoryRoot.appendingPathComponent("samples/day.jsonl"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    /// Publishes `lines` as the normalised events ingest would publish for `device`.
    public static func publishEvents(_ lines: some Collection<String>, device: String, with client: MQTTClient) async throws {
        let decoder = JSONDecoder()
        for (i, line) in lines.enumerated() {
            let data = Data(line.utf8)
            let ts = try decoder.decode(Timed.self, from: data).ts
            if line.contains("activity") {
                let event = DeviceEvent(id: "m\(ts.milliseconds)", deviceId: device, ts: ts, receivedAt: ts, body: try decoder.decode(Motion.self, from: data))
                try await client.publish("guardian/events/\(device)/motion", payload: GuardianJSON.encode(event))
            } else {
                let event = DeviceEvent(id: "l\(ts.milliseconds)-\(i)", deviceId: device, ts: ts, receivedAt: ts, body: try decoder.decode(Location.self, from: data))
                try await client.publish("guardian/events/\(device)/location", payload: GuardianJSON.encode(event))
            }
        }
    }
}
