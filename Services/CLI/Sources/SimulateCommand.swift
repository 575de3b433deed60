import ArgumentParser
import Foundation
import GuardianShared
import MQTT

/// `guardian simulate`: a device walking a route past zones, with motion and budget, sped up.
struct SimulateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Walk a device along a route (lat,lon waypoints), publishing location, motion and budget as the device would.",
        discussion: "Each fix is `--interval` seconds of simulated time apart; the simulation runs `--speedup` times faster than real time. Event times start now.")

    @Option(help: "The device id (it publishes under guardian/devices/{id}/).")
    var device = "phone-alice"

    @Option(name: .customLong("via"), help: "A waypoint \"lat,lon\" (repeatable, at least two).")
    var waypoints: [String] = []

    @Option(help: "Walking speed in m/s.")
    var speed = 1.4

    @Option(help: "Simulated seconds between fixes.")
    var interval = 30.0

    @Option(help: "Minutes to stay at the last waypoint.")
    var linger = 0.0

    @Option(help: "How many times faster than real time.")
    var speedup = 60.0

    @Option(help: "Budget utilization to report first, [0, 1].")
    var budget: Double?

    @Option(help: "IANA time zone to publish as the device's profile.")
    var timezone: String?

    func validate() throws {
        guard Identifier.isValid(device) else { throw ValidationError("'\(device)' is not a device id") }
        guard waypoints.count >= 2 else { throw ValidationError("give at least two --via lat,lon waypoints") }
        guard speed > 0, interval > 0, speedup > 0 else { throw ValidationError("speed, interval and speedup must be positive") }
    }

    func run() async throws {
        let points = try waypoints.map { text -> (Double, Double) in
            let parts = text.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 2, (-90...90).contains(parts[0]), (-180...180).contains(parts[1]) else { throw ValidationError("bad waypoint '\(text)'") }
            return (parts[0], parts[1])
        }
        let (client, topics) = try await BusConnection.connect(clientSuffix: "simulate")
        var clock = Timestamp.now()
        let started = clock
        func send<Body: Encodable>(_ kind: EventKind, _ body: Body, retain: Bool = false) async throws {
            try await client.publish(topics.deviceUpload(device, kind), payload: GuardianJSON.encode(body), retain: retain)
        }
        if let timezone { try await send(.profile, ["timezone": timezone, "role": "adult"], retain: true) }
        if let budget { try await send(.budget, ["ts": JSONObject.string(clock.rfc3339), "utilization": .number(budget)]) }
        try await send(.motion, ["ts": clock.rfc3339, "activity": "walking"])
        var fixes = 0
        for (from, to) in zip(points, points.dropFirst()) {
            let distance = Self.meters(from, to)
            let steps = max(1, Int((distance / (speed * interval)).rounded(.up)))
            for step in 0..<steps {
                let f = Double(step) / Double(steps)
                try await fix(at: (from.0 + (to.0 - from.0) * f, from.1 + (to.1 - from.1) * f), clock)
                fixes += 1
                clock = clock.adding(seconds: interval)
                try await Task.sleep(for: .milliseconds(Int(interval / speedup * 1000)))
            }
        }
        try await send(.motion, ["ts": clock.rfc3339, "activity": "stationary"])
        let lingerFixes = Int(linger * 60 / interval)
        for _ in 0...lingerFixes {
            try await fix(at: points.last!, clock)
            fixes += 1
            clock = clock.adding(seconds: interval)
            try await Task.sleep(for: .milliseconds(Int(interval / speedup * 1000)))
        }
        await client.shutdown()
        print("\(device): \(fixes) fixes over \(Int((clock.secondsSinceEpoch - started.secondsSinceEpoch) / 60)) simulated minutes")

        func fix(at point: (Double, Double), _ ts: Timestamp) async throws {
            try await send(.location, ["ts": JSONObject.string(ts.rfc3339), "lat": .number(point.0), "lon": .number(point.1), "acc": .number(10)])
        }
    }

    static func meters(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
        let r = 6_371_008.8, p1 = a.0 * .pi / 180, p2 = b.0 * .pi / 180, dp = p2 - p1, dl = (b.1 - a.1) * .pi / 180
        let h = sin(dp / 2) * sin(dp / 2) + cos(p1) * cos(p2) * sin(dl / 2) * sin(dl / 2)
        return 2 * r * asin(min(1, sqrt(h)))
    }
}
