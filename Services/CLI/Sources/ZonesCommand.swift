import ArgumentParser
import Foundation
import GuardianShared
import MQTT

/// `guardian zones import FILE`: publishes a brief-style zone file as retained zones.
struct ZonesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "zones", abstract: "Manage danger zones.", subcommands: [Import.self, Delete.self])

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Publish a zone file ([{merchant, lat, lng, regret_count}]) as retained guardian/zones/{zoneId}.")

        @Argument(help: "The zone file (JSON).")
        var file: String

        @Flag(help: "Print the zones that would be published, publish nothing.")
        var dryRun = false

        func run() async throws {
            guard let data = FileManager.default.contents(atPath: file) else { throw CLIFailure("cannot read \(file)") }
            let zones: [(id: String, zone: DangerZone)]
            do {
                zones = try ZoneFile.zones(from: data)
            } catch {
                throw CLIFailure("\(file): \(error)")
            }
            if dryRun {
                for (id, zone) in zones { print("\(id)  \(String(decoding: GuardianJSON.encode(zone), as: UTF8.self))") }
                return
            }
            let (client, topics) = try await BusConnection.connect(clientSuffix: "zones")
            for (id, zone) in zones {
                try await client.publish("\(topics.prefix)/zones/\(id)", payload: GuardianJSON.encode(zone), retain: true)
            }
            await client.shutdown()
            print("published \(zones.count) zone\(zones.count == 1 ? "" : "s")")
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete zones (an empty retained message each).")

        @Argument(help: "Zone ids.")
        var ids: [String]

        func run() async throws {
            for id in ids where !Identifier.isValid(id) { throw ValidationError("'\(id)' is not a zone id ([A-Za-z0-9_-]{1,64})") }
            let (client, topics) = try await BusConnection.connect(clientSuffix: "zones")
            for id in ids { try await client.publish("\(topics.prefix)/zones/\(id)", payload: Data(), retain: true) }
            await client.shutdown()
            // An empty retained message clears a zone; one that did not exist stays absent.
            print("cleared \(ids.count) zone\(ids.count == 1 ? "" : "s") (\(ids.joined(separator: ", ")))")
        }
    }
}
