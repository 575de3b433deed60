import Foundation
import MQTT

/// Commands to the broker's dynamic-security plugin over `$CONTROL/dynamic-security/v1`, each
/// answered on `…/response` and matched by its correlation data. Needs an admin connection.
public final class DynamicSecurityControl: Sendable {
    static let topic = "$CONTROL/dynamic-security/v1"

    struct Command: Encodable {
        var command: String
        var username: String?
        var password: String?
        var textname: String?
        var rolename: String?
        var roles: [RoleReference]?
        var acls: [DynamicSecurityACL]?
        var verbose: Bool?
        var count: Int?
        var offset: Int?
        var correlationData = ""
    }

    struct RoleReference: Codable { var rolename: String }

    struct Answer: Decodable {
        var command: String
        var error: String?
        var correlationData: String?
        var data: ListedClients?
    }

    struct ListedClients: Decodable {
        struct Client: Decodable {
            var username: String
            var roles: [RoleReference]?
        }
        var clients: [Client]?
    }

    private let client: MQTTClient
    private let answers: MQTTSubscription
    private let timeout: Duration

    /// Subscribes to the plugin's answers on `client` (connected as an admin).
    public init(client: MQTTClient, timeout: Duration = .seconds(10)) async throws(BrokerAccessError) {
        self.client = client
        self.timeout = timeout
        do {
            answers = try await client.subscribe("\(Self.topic)/response")
        } catch .subscriptionRefused(_, let code) {
            throw .refused(command: "reading the plugin's answers", reason: "not authorized (MQTT reason \(code)): connect as admin")
        } catch {
            throw .refused(command: "reading the plugin's answers", reason: "\(error)")
        }
    }

    /// Sends `commands` in one message and returns their answers in order; throws on the first error
    /// unless its text is in `tolerating` (e.g. "Client not found" when removing).
    func run(_ commands: [Command], tolerating: Set<String> = []) async throws(BrokerAccessError) -> [Answer] {
        let tag = UUID().uuidString
        var tagged = commands
        for index in tagged.indices { tagged[index].correlationData = "\(tag)-\(index)" }
        let names = commands.map(\.command).joined(separator: ", ")
        let payload: Data
        do {
            payload = try JSONEncoder().encode(["commands": tagged])
            try await client.publish(Self.topic, payload: payload)
        } catch MQTTError.publishRefused(_, let code) {
            throw .refused(command: names, reason: "not authorized (MQTT reason \(code)): connect as admin")
        } catch {
            throw .refused(command: names, reason: "\(error)")
        }
        let answers = self.answers
        let found: [Answer]? = await withTaskGroup(of: [Answer]?.self) { group in
            group.addTask {
                for await message in answers {
                    guard let body = try? JSONDecoder().decode([String: [Answer]].self, from: message.payload),
                        let list = body["responses"], list.contains(where: { $0.correlationData?.hasPrefix(tag) == true })
                    else { continue }
                    return list.filter { $0.correlationData?.hasPrefix(tag) == true }
                }
                return nil
            }
            group.addTask { [timeout] in
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        guard let found else { throw .noAnswer(command: names) }
        for answer in found {
            if let error = answer.error, !tolerating.contains(error) { throw .refused(command: answer.command, reason: error) }
        }
        return found
    }
}
