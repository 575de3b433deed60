import ArgumentParser
import Foundation
import GuardianShared
import MQTT

/// `guardian tail`: prints messages of a topic family as they arrive, one readable line each.
struct TailCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tail", abstract: "Print messages as they arrive (events, errors, services, or any MQTT filter).")

    enum Family: String, ExpressibleByArgument, CaseIterable {
        case events, errors, services, notifications, geofence, predictions, nudges, policies, all
    }

    @Argument(help: "events, errors, services, notifications, geofence, predictions, nudges, policies, all, or an MQTT topic filter.")
    var family: String = "all"

    @Option(help: "Only this device (events, geofence, predictions, nudges, policies).")
    var device: String?

    @Option(help: "Only this recipient (notifications).")
    var recipient: String?

    @Flag(help: "Print raw JSON payloads.")
    var json = false

    /// Arguments checked before connecting, so a mistake gets this command's usage.
    func validate() throws {
        for id in [device, recipient].compactMap({ $0 }) where !Identifier.isValid(id) {
            throw ValidationError("'\(id)' is not an id ([A-Za-z0-9_-]{1,64})")
        }
        let known = Family(rawValue: family)
        // "tail evnets" is a typo, not a topic nobody publishes on: a filter names a level ("a/b") or a wildcard.
        if known == nil, !family.contains("/"), family != "#" {
            throw ValidationError("'\(family)' is neither \(Family.allCases.map(\.rawValue).joined(separator: ", ")) nor a topic filter (a/b, a/#)")
        }
        if device != nil, ![.events, .geofence, .predictions, .nudges, .policies].contains(known) {
            throw ValidationError("--device goes with events, geofence, predictions, nudges or policies")
        }
        if recipient != nil, known != .notifications { throw ValidationError("--recipient goes with notifications") }
    }

    func run() async throws {
        let known = Family(rawValue: family)
        let (client, topics) = try await BusConnection.connect(clientSuffix: "tail")
        let filter: String
        switch known {
        case .events: filter = device.map { "\(topics.prefix)/events/\($0)/+" } ?? topics.allEvents
        case .errors: filter = topics.allErrors
        case .services: filter = topics.allPresence
        case .notifications: filter = "\(topics.prefix)/notifications/\(recipient ?? "+")"
        case .geofence: filter = "\(topics.prefix)/geofence/\(device ?? "+")"
        case .predictions: filter = "\(topics.prefix)/predictions/\(device ?? "+")"
        case .nudges: filter = "\(topics.prefix)/nudges/\(device ?? "+")"
        case .policies: filter = "\(topics.prefix)/children/\(device ?? "+")/policy"
        case .all: filter = "\(topics.prefix)/#"
        case nil: filter = family
        }
        let subscription = try await client.subscribe(filter)
        for await message in subscription {
            FileHandle.standardOutput.write(Data((render(message) + "\n").utf8))
        }
    }

    func render(_ message: MQTTMessage) -> String {
        let text = String(decoding: message.payload, as: UTF8.self)
        if json { return "\(message.topic) \(text)" }
        guard let object = try? JSONSerialization.jsonObject(with: message.payload) as? [String: Any] else {
            return "\(message.topic)  \(text.prefix(200))"
        }
        if let title = object["title"] as? String, let body = object["body"] as? String {
            // A notification, as a person would read it.
            let recipient = message.topic.split(separator: "/").last.map(String.init) ?? "?"
            let priority = (object["priority"] as? String).map { $0 == "high" ? " !" : "" } ?? ""
            return "\((object["ts"] as? String).map { String($0.dropFirst(11).prefix(8)) } ?? "")  to \(recipient)\(priority)  \(title): \(body)"
        }
        let time = (object["ts"] as? String).map { String($0.dropFirst(11).prefix(12)) } ?? "            "
        let fields = object.keys.sorted().filter { !["ts", "id", "receivedAt", "deviceId"].contains($0) }
            .map { "\($0)=\(describe(object[$0]!))" }.joined(separator: " ")
        return "\(time)  \(message.topic)  \(fields)"
    }

    private func describe(_ value: Any) -> String {
        switch value {
        case let s as String: return s.contains(" ") ? "\"\(s)\"" : s
        case let n as NSNumber: return "\(n)"
        default:
            let data = (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])) ?? Data()
            return String(decoding: data, as: UTF8.self)
        }
    }
}

struct VersionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "version", abstract: "Print Guardian's version.")
    func run() { print(GuardianVersion.current) }
}
