import ArgumentParser
import Foundation
import GuardianShared
import MQTT

/// `guardian status`: every service instance from its retained presence.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "Every service instance: up or down, version, uptime, counters.")

    @Option(help: "Seconds to collect retained presence.")
    var wait = 1.0

    func run() async throws {
        let (client, topics) = try await BusConnection.connect(clientSuffix: "status")
        let subscription = try await client.subscribe(topics.allPresence)
        let collect = Task { () -> [String: Presence] in
            var latest: [String: Presence] = [:]
            for await message in subscription {
                if let presence = try? JSONDecoder().decode(Presence.self, from: message.payload) {
                    latest[String(message.topic.dropFirst(topics.prefix.count + "/services/".count))] = presence
                }
                if Task.isCancelled { break }
            }
            return latest
        }
        try await Task.sleep(for: .milliseconds(Int(wait * 1000)))
        await client.shutdown()
        let instances = await collect.value
        guard !instances.isEmpty else {
            print("no service has announced itself on \(topics.allPresence)")
            throw ExitCode(1)
        }
        let now = Timestamp.now()
        for (name, presence) in instances.sorted(by: { $0.key < $1.key }) {
            let uptime = Int(now.secondsSinceEpoch - presence.startedAt.secondsSinceEpoch)
            let counters = presence.stats.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            let padded = name.padding(toLength: max(28, name.count), withPad: " ", startingAt: 0)
            print("\(padded) \(presence.status.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)) v\(presence.version)  up \(uptime / 3600)h\(uptime / 60 % 60)m\(uptime % 60)s  \(counters)")
        }
    }
}
