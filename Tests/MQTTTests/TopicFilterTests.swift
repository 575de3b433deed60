import MQTT
import Testing

@Suite("Topic filters")
struct TopicFilterTests {
    @Test(arguments: [
        ("a/b", "a/b", true), ("a/+", "a/b", true), ("a/+", "a/b/c", false), ("a/#", "a", true), ("a/#", "a/b/c", true),
        ("#", "a/b", true), ("+/+", "a/b", true), ("+", "a/b", false), ("$share/g/a/+", "a/b", true),
        ("#", "$SYS/x", false), ("+/x", "$SYS/x", false), ("a/+/c", "a//c", true), ("a/b", "a/b/", false),
    ])
    func matching(filter: String, topic: String, expected: Bool) {
        #expect(TopicFilter.matches(filter, topic: topic) == expected)
    }

    @Test func validity() {
        #expect(TopicFilter.isValidFilter("a/+/b/#"))
        #expect(!TopicFilter.isValidFilter("a/b#"))
        #expect(!TopicFilter.isValidFilter("a/#/b"))
        #expect(!TopicFilter.isValidFilter("a/b+"))
        #expect(!TopicFilter.isValidFilter(""))
        #expect(TopicFilter.isValidTopic("guardian/devices/x/location"))
        #expect(!TopicFilter.isValidTopic("a/+"))
        #expect(!TopicFilter.isValidTopic(""))
    }

    @Test func urls() throws {
        let plain = try MQTTConfiguration(url: "mqtt://user:p%40ss@broker.local:1884", clientId: "c")
        #expect(plain.host == "broker.local" && plain.port == 1884 && plain.username == "user" && plain.password == "p@ss" && !plain.useTLS)
        let tls = try MQTTConfiguration(url: "mqtts://broker", clientId: "c")
        #expect(tls.port == 8883 && tls.useTLS)
        #expect(throws: MQTTError.self) { try MQTTConfiguration(url: "http://x", clientId: "c") }
        #expect(throws: MQTTError.self) { try MQTTConfiguration(url: "nonsense", clientId: "c") }
    }
}
