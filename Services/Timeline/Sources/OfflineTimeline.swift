import Foundation
import GuardianShared

/// Days of slots from a file of events, without the bus: what `guardian timeline build` prints.
public enum OfflineTimeline {
    /// One device's events from a file, in time order.
    public struct DeviceEvents: Sendable, Hashable {
        public var deviceId: String
        public var motion: [MotionEvent] = []
        public var locations: [LocationEvent] = []
        /// From the device's `state` events that say whether it charges.
        public var charges: [ChargeEvent] = []

        public init(deviceId: String, motion: [MotionEvent] = [], locations: [LocationEvent] = [], charges: [ChargeEvent] = []) {
            self.deviceId = deviceId
            self.motion = motion
            self.locations = locations
            self.charges = charges
        }
    }

    /// What a file held: each device's events (by device id) and the reasons for the lines not read.
    public struct Reading: Sendable {
        public var devices: [DeviceEvents]
        public var problems: [String]

        /// Every device's events together (a file of one device).
        public var motion: [MotionEvent] { devices.flatMap(\.motion).sorted { $0.timestamp < $1.timestamp } }
        public var locations: [LocationEvent] { devices.flatMap(\.locations).sorted { $0.timestamp < $1.timestamp } }
    }

    /// Reads contract-shaped events, one JSON object per line (`{ts, lat, lon, …}`,
    /// `{ts, activity, …}` or a `state` with `batteryState`): device uploads, which belong to `deviceId`, or ingest's normalised
    /// events, which name their device.
    public static func read(jsonLines data: Data, deviceId: String = "offline") -> Reading {
        var devices: [String: DeviceEvents] = [:]
        var problems: [String] = []
        let decoder = JSONDecoder()
        struct Header: Decodable {
            var ts: Timestamp
            var deviceId: String?
        }
        for (number, line) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true).enumerated() {
            let bytes = Data(line.utf8)
            do {
                let header = try decoder.decode(Header.self, from: bytes)
                let device = header.deviceId ?? deviceId
                try Identifier.validate(device, field: "deviceId")
                let ts = header.ts.milliseconds
                if line.contains("\"activity\"") {
                    let body = try decoder.decode(Motion.self, from: bytes)
                    if let activity = MotionActivity(rawValue: body.activity.rawValue) {
                        devices[device, default: DeviceEvents(deviceId: device)].motion.append(MotionEvent(timestamp: ts, activity: activity))
                    }
                } else if line.contains("\"batteryState\"") {
                    let body = try decoder.decode(DeviceState.self, from: bytes)
                    if let charging = body.batteryState.flatMap(ChargeEvent.isCharging) {
                        devices[device, default: DeviceEvents(deviceId: device)].charges.append(ChargeEvent(timestamp: ts, charging: charging))
                    }
                } else {
                    let body = try decoder.decode(Location.self, from: bytes)
                    let fix = LocationEvent(timestamp: ts, location: GeoPoint(lat: body.lat, lon: body.lon))
                    devices[device, default: DeviceEvents(deviceId: device)].locations.append(fix)
                }
            } catch {
                problems.append("line \(number + 1): \(ContractViolation.from(error))")
            }
        }
        let sorted = devices.values.sorted { $0.deviceId < $1.deviceId }.map { device in
            DeviceEvents(
                deviceId: device.deviceId, motion: device.motion.sorted { $0.timestamp < $1.timestamp },
                locations: device.locations.sorted { $0.timestamp < $1.timestamp }, charges: device.charges.sorted { $0.timestamp < $1.timestamp })
        }
        return Reading(devices: sorted, problems: problems)
    }

    /// Segments and labels (standard day only) each device's events; returns every device's
    /// local days, as published, device by device.
    public static func build(_ reading: Reading, timeZone: TimeZone) throws -> [PublishedDay] {
        try reading.devices.flatMap { try build($0, timeZone: timeZone) }
    }

    /// One device's local days, as published.
    public static func build(_ device: DeviceEvents, timeZone: TimeZone) throws -> [PublishedDay] {
        let now = Timestamp.now()
        return try days(device, timeZone: timeZone).map { PublishedDay(deviceId: device.deviceId, day: $0, generatedAt: now) }
    }

    /// One device's labelled local days.
    public static func days(_ device: DeviceEvents, timeZone: TimeZone) throws -> [DayTimeline] {
        guard let until = (device.motion.map(\.timestamp) + device.locations.map(\.timestamp)).max() else { return [] }
        let update = TimelineGenerator(timeZone: timeZone).rebuild(
            motion: device.motion, locations: device.locations, charges: device.charges, until: until)
        let classifier = try SlotClassifier.train(examples: [], places: update.state.spans, timeZone: timeZone)
        let labelled = classifier.label(update.state, timeZone: timeZone)
        return DayTimeline.days(of: labelled, timeZone: timeZone)
    }
}
