import GuardianTestSupport

/// Privacy requests (`guardian/privacy/requests/{requester}`) that break the contract: none may
/// erase or export anything, each is reported.
enum PrivacyHostility {
    static let schema = HostileSchema([
        HostileField("id", .id) { rng in .string("req-\(rng.int(1...9999))") },
        HostileField("action", .choice(["forget", "export"])) { rng in .string(rng.pick(["forget", "export"])) },
        HostileField("deviceId", .id) { rng in .string(rng.pick(EventFields.deviceIds)) },
    ])

    static func request(weight: Int) -> HostileTopic {
        HostileTopic(
            label: "privacy request", weight: weight, topic: { "guardian/privacy/requests/\($0)" }, ids: ["admin", "fuzz-parent"] + EventFields.deviceIds,
            schema: schema)
    }
}
