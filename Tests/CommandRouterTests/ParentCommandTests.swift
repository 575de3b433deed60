import Foundation
@testable import GuardianCommandRouter
import Testing

private func decode(_ json: String) throws -> ParentCommand {
    try JSONDecoder().decode(ParentCommand.self, from: Data(json.utf8))
}

@Suite("ParentCommand")
struct ParentCommandTests {
    @Test("encodes exactly the contract's field names")
    func encoding() throws {
        let command = try ParentCommand(
            action: .extend, durationSeconds: 900,
            schedule: .init(start: "21:05", end: "07:00", type: .bedtime, repeat: ParentCommand.Schedule.Repeat.none))
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(command)) as! [String: Any]
        #expect(Set(object.keys) == ["action", "durationSeconds", "schedule"])
        #expect(object["action"] as? String == "extend")
        #expect(Set((object["schedule"] as! [String: Any]).keys) == ["start", "end", "type", "repeat"])
        let app = try JSONSerialization.jsonObject(with: JSONEncoder().encode(try ParentCommand(action: .blockApp, apps: ["YouTube"]))) as! [String: Any]
        #expect(app["action"] as? String == "block_app")
        #expect(app["apps"] as? [String] == ["youtube"])
    }

    @Test("decodes the contract's examples and round-trips")
    func examples() throws {
        let examples = [
            #"{"action": "shutdown", "durationSeconds": 7200, "categories": ["games"]}"#,
            #"{"action": "extend", "durationSeconds": 600}"#,
            #"{"action": "block_app", "apps": ["youtube"], "condition": "homework"}"#,
            #"{"action": "schedule", "schedule": {"start": "21:00", "end": "07:00", "type": "social_only", "repeat": "weekends"}}"#,
        ]
        for json in examples {
            let command = try decode(json)
            #expect(try decode(String(decoding: JSONEncoder().encode(command), as: UTF8.self)) == command)
        }
    }

    @Test("normalises app names and until")
    func normalisation() throws {
        #expect(try decode(#"{"action": "block_app", "apps": ["You Tube", "Insta", "Zorblax Quest", "youtube"]}"#).apps == ["youtube", "instagram", "zorblax_quest"])
        #expect(try decode(#"{"action": "shutdown", "until": "2026-05-15T20:00:00-04:00"}"#).until == "2026-05-16T00:00:00.000Z")
        #expect(try decode(#"{"action": "warning", "message": "  Dinner!  "}"#).message == "Dinner!")
    }

    @Test(arguments: [
        #"{"action": "explode"}"#,
        #"{"durationSeconds": 60}"#,
        #"{"action": "extend", "durationSeconds": 0}"#,
        #"{"action": "extend", "durationSeconds": 604801}"#,
        #"{"action": "extend", "durationSeconds": 1.5}"#,
        #"{"action": "extend"}"#,
        #"{"action": "block_app"}"#,
        #"{"action": "block_app", "apps": []}"#,
        #"{"action": "block_app", "apps": ["!!!"]}"#,
        #"{"action": "shutdown", "categories": ["toys"]}"#,
        #"{"action": "shutdown", "categories": []}"#,
        #"{"action": "warning"}"#,
        #"{"action": "warning", "message": ""}"#,
        #"{"action": "warning", "message": "hi", "apps": ["youtube"]}"#,
        #"{"action": "shutdown", "until": "tomorrow"}"#,
        #"{"action": "shutdown", "until": "2026-05-15T20:00:00"}"#,
        #"{"action": "shutdown", "durationSeconds": 60, "until": "2026-05-15T20:00:00Z"}"#,
        #"{"action": "schedule"}"#,
        #"{"action": "schedule", "schedule": {"start": "25:00", "end": "07:00", "type": "bedtime"}}"#,
        #"{"action": "schedule", "schedule": {"start": "9pm", "end": "07:00", "type": "bedtime"}}"#,
        #"{"action": "schedule", "schedule": {"start": "21:00", "end": "21:00", "type": "bedtime"}}"#,
        #"{"action": "schedule", "schedule": {"start": "21:00", "end": "07:00", "type": "nap"}}"#,
        #"{"action": "schedule", "schedule": {"start": "21:00", "end": "07:00", "type": "bedtime", "repeat": "monthly"}}"#,
        #"{"action": "schedule", "durationSeconds": 60, "schedule": {"start": "21:00", "end": "07:00", "type": "bedtime"}}"#,
        #"{"action": "shutdown", "schedule": {"start": "21:00", "end": "07:00", "type": "bedtime"}}"#,
        #"{"action": "extend", "durationSeconds": 60, "schedule": {"start": "21:00", "end": "07:00", "type": "educational"}}"#,
    ])
    func rejects(json: String) {
        #expect(throws: (any Error).self, "\(json)") { try decode(json) }
    }

    @Test("rejects messages over 200 characters and until outside (now, now + 7 days]")
    func limits() throws {
        #expect(throws: CommandValidationError.self) { try ParentCommand(action: .warning, message: String(repeating: "x", count: 201)) }
        _ = try ParentCommand(action: .warning, message: String(repeating: "x", count: 200))
        let now = Fixtures.now
        #expect(throws: CommandValidationError.self) { try ParentCommand(action: .shutdown, until: "2026-05-15T17:00:00Z").validate(now: now) }
        #expect(throws: CommandValidationError.self) { try ParentCommand(action: .shutdown, until: "2026-05-23T17:30:00Z").validate(now: now) }
        try ParentCommand(action: .shutdown, until: "2026-05-22T17:30:00Z").validate(now: now)
    }

    @Test("summaries read as one line")
    func summaries() throws {
        #expect(try ParentCommand(action: .shutdown, durationSeconds: 7200, categories: [.games]).summary == "Games blocked for 2 hours")
        #expect(try ParentCommand(action: .blockApp, apps: ["youtube"], condition: "homework").summary == "YouTube blocked until homework is done")
        #expect(try ParentCommand(action: .blockApp, durationSeconds: 5400, apps: ["tiktok", "instagram"]).summary == "TikTok and Instagram blocked for 1 hour 30 minutes")
        #expect(try ParentCommand(action: .extend, durationSeconds: 600).summary == "10 more minutes")
        #expect(try ParentCommand(action: .allow).summary == "All restrictions lifted")
        #expect(try ParentCommand(action: .shutdown, until: "2026-05-16T00:00:00Z").summary(in: Fixtures.newYork) == "Everything blocked until Fri 20:00")
        #expect(try ParentCommand(action: .warning, message: "Dinner is in 10 minutes").summary == "Warning: “Dinner is in 10 minutes”")
        #expect(try ParentCommand(action: .schedule, schedule: .init(start: "21:00", end: "07:00", type: .bedtime, repeat: .weekdays)).summary
                == "Bedtime 21:00–07:00 on school nights")
        let extend = try ParentCommand(action: .extend, durationSeconds: 900, schedule: .init(start: "21:05", end: "07:00", type: .bedtime))
        #expect(Interpretation.command(extend, child: "Sam").summary(in: Fixtures.newYork) == "Sam: 15 more minutes, then bedtime at 21:05")
    }

    @Test("RFC 3339 parsing and formatting")
    func rfc3339() {
        #expect(RFC3339.parse("2026-05-15T17:30:00Z") == Date(timeIntervalSince1970: 1_778_866_200))
        #expect(RFC3339.parse("2026-05-15T13:30:00.250-04:00") == Date(timeIntervalSince1970: 1_778_866_200.25))
        #expect(RFC3339.format(Date(timeIntervalSince1970: 1_778_866_200.25)) == "2026-05-15T17:30:00.250Z")
        #expect(RFC3339.format(Date(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59.000Z")
        for bad in ["2026-02-30T00:00:00Z", "2026-05-15 17:30", "2026-05-15T17:30:00+5:00", "2026-05-15T17:30:00Zjunk", ""] {
            #expect(RFC3339.parse(bad) == nil, "\(bad)")
        }
    }
}
