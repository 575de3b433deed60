import ArgumentParser
import Foundation
import GuardianShared
import GuardianTimeline
import GuardianTimelineEvaluation
import MQTT

/// `guardian timeline build EVENTS.jsonl`, `guardian timeline show DEVICE --date D --svg FILE`
/// and `guardian timeline evaluate`.
struct TimelineCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timeline", abstract: "Build or draw a day's time slots.", subcommands: [Build.self, Show.self, Evaluate.self])

    struct Build: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Offline: location and motion events (JSON lines) in, the days' slots out as JSON.")

        @Argument(help: "A file of contract-shaped location and motion events, one JSON object per line.")
        var events: String

        @Option(help: "IANA time zone of the days.")
        var timezone = "UTC"

        @Option(help: "The device of lines that do not name one (device uploads).")
        var device = "offline"

        @Option(help: "Also draw each day as an SVG into this folder.")
        var svgDir: String?

        func run() throws {
            guard let zone = TimeZone(identifier: timezone) else { throw ValidationError("unknown time zone \(timezone)") }
            guard Identifier.isValid(device) else { throw ValidationError("'\(device)' is not a device id") }
            let reading = OfflineTimeline.read(jsonLines: try Data(contentsOf: URL(fileURLWithPath: events)), deviceId: device)
            for problem in reading.problems { FileHandle.standardError.write(Data("skipped \(problem)\n".utf8)) }
            let days = try OfflineTimeline.build(reading, timeZone: zone)
            let encoder = GuardianJSON.encoder()
            encoder.outputFormatting.insert(.prettyPrinted)
            print(String(decoding: try encoder.encode(days), as: UTF8.self))
            if let svgDir {
                try FileManager.default.createDirectory(atPath: svgDir, withIntermediateDirectories: true)
                for day in days {
                    guard let timeline = day.dayTimeline else { continue }
                    let name = reading.devices.count > 1 ? "\(day.deviceId)-\(day.date)" : day.date
                    try TimelineSVG().render(timeline).write(toFile: "\(svgDir)/\(name).svg", atomically: true, encoding: .utf8)
                }
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Fetch a published day and draw it (a bar per slot, coloured by category).")

        @Argument(help: "The device id.")
        var device: String

        @Option(help: "The local date, YYYY-MM-DD.")
        var date: String

        @Option(help: "Write the picture here (SVG); without it the slots are printed.")
        var svg: String?

        func run() async throws {
            guard Identifier.isValid(device) else { throw ValidationError("'\(device)' is not a device id") }
            guard let parts = date.wholeMatch(of: /(\d{4})-(\d{2})-(\d{2})/),
                  DateComponents(calendar: Calendar(identifier: .gregorian), year: Int(parts.1), month: Int(parts.2), day: Int(parts.3)).isValidDate
            else { throw ValidationError("'\(date)' is not a date (YYYY-MM-DD)") }
            let (client, topics) = try await BusConnection.connect(clientSuffix: "timeline")
            let subscription = try await client.subscribe("\(topics.prefix)/timeline/\(device)/days/\(date)")
            let fetch = Task { () -> MQTTMessage? in
                for await message in subscription { return message }
                return nil
            }
            let timeout = Task {
                try await Task.sleep(for: .seconds(5))
                fetch.cancel()
            }
            let message = await fetch.value
            timeout.cancel()
            await client.shutdown()
            guard let message, !message.payload.isEmpty else {
                // Not a usage error: the day is not there (yet).
                FileHandle.standardError.write(Data("""
                    no published day \(date) for \(device): the timeline publishes a device's days when it is asked to \
                    (the device, or an administrator, publishes {} on \(topics.prefix)/timeline/\(device)/generate), \
                    from the events it has of them.

                    """.utf8))
                throw ExitCode(1)
            }
            let day = try JSONDecoder().decode(PublishedDay.self, from: message.payload)
            if let svg {
                guard let timeline = day.dayTimeline else { throw CLIFailure("the published day is not a day in \(day.timezone)") }
                try TimelineSVG().render(timeline).write(toFile: svg, atomically: true, encoding: .utf8)
                print("wrote \(svg): \(day.slots.count) slots on \(day.date) (\(day.timezone))")
            } else {
                // On the day's own clock, as the person lived it.
                let clock = DateFormatter()
                clock.locale = Locale(identifier: "en_US_POSIX")
                clock.timeZone = TimeZone(identifier: day.timezone) ?? .gmt
                clock.dateFormat = "HH:mm"
                print("\(device) \(day.date) (\(clock.timeZone.identifier))")
                for slot in day.slots {
                    print("\(clock.string(from: slot.start.date))-\(clock.string(from: slot.end.date))  \(slot.category.rawValue)  \(slot.activity.rawValue)  \(Int(slot.confidence * 100))%\(slot.edited ? " (edited)" : "")")
                }
            }
        }
    }

    struct Evaluate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Build the held-out labelled synthetic days offline and score them against the truth.")

        @Option(help: "Days per person (the days after the first 14 are scored with two weeks of history).")
        var days = 17

        @Option(help: "People per kind of person (\(SyntheticPerson.Routine.allCases.map(\.rawValue).joined(separator: ", "))).")
        var perRoutine = 2

        @Option(help: "The first local day, YYYY-MM-DD.")
        var firstDay = "2026-10-19"

        @Option(help: "IANA time zone the people live in.")
        var timezone = "Europe/Berlin"

        @Flag(help: "Score the training days (for tuning) instead of the held-out ones.")
        var training = false

        @Flag(help: "Let every phone show each walk at home, as a carried one does: the same days, so what is still lost is the rules', not what the phone did not show.")
        var everyWalkShown = false

        @Option(help: "Also list this person's slots beside the truth (a device id from the report, e.g. student-6).")
        var show: String?

        @Flag(help: "With --show, list what the person did too, each start marked found (>), or missed where the phone showed the change (!) or showed nothing (?).")
        var truth = false

        @Option(help: "With --show, list this stage's build instead of the whole period's (\(TimelineEvaluation.Stage.allCases.map(\.option).joined(separator: ", "))).")
        var stage = TimelineEvaluation.Stage.wholePeriod.option

        func run() throws {
            guard days >= 1, perRoutine >= 1 else { throw ValidationError("--days and --per-routine must be at least 1") }
            guard let zone = TimeZone(identifier: timezone) else { throw ValidationError("unknown time zone \(timezone)") }
            guard firstDay.split(separator: "-").compactMap({ Int($0) }).count == 3 else { throw ValidationError("--first-day must be YYYY-MM-DD") }
            let routines = SyntheticPerson.Routine.allCases
            let data = LabelledDays(
                people: perRoutine * routines.count, firstDay: firstDay, days: days, timeZone: zone,
                seed: training ? LabelledDays.trainingSeed : LabelledDays.heldOutSeed, routines: routines, everyWalkShown: everyWalkShown)
            let name = (training ? "training" : "held-out") + (everyWalkShown ? ", every walk at home shown" : "")
            let evaluation = try TimelineEvaluation(data, name: name, stages: TimelineEvaluation.Stage.allCases)
            print(evaluation.report)
            if let show {
                guard let built = TimelineEvaluation.Stage.allCases.first(where: { $0.option == stage }) else { throw ValidationError("unknown stage \(stage)") }
                guard let listing = evaluation.listing(of: show, truth: truth, stage: built) else { throw ValidationError("no person \(show)") }
                let person = data.people.first { $0.person.deviceId == show }?.person
                let phone = [person?.leavesPhoneDown == true && !everyWalkShown ? "phone on a table at home" : "phone in a pocket", person?.chargesOvernight == true ? "charged overnight" : nil]
                print("\n\(show) (\(phone.compactMap { $0 }.joined(separator: ", "))), \(built.rawValue) (* where the slot is not what they did for most of it):\n\(listing)")
            }
            print("")
            print(try CorrectionExperiment(data).report)
        }
    }
}
