import Foundation

/// The predicate a clause comes down to.
enum Head: Equatable {
    case block(needsTarget: Bool)
    /// `permissive`: allow/let/permit (negated, a prohibition); otherwise lifting a block
    /// (unblock/lift/remove restrictions; negated, a request to change nothing).
    case allow(permissive: Bool, needsTarget: Bool)
    case extend
    case schedule
    case none
}

extension ClauseSlots {
    /// The first predicate among the cues, read with its particles and neighbours ("turn … off",
    /// "stop blocking", "let … have 10 more minutes", "he can play"), and whether a "not"/"never"
    /// comes before it. "no X" blocks X, "no restrictions" lifts them. With no verb, "10 more
    /// minutes" extends and "bedtime mode" schedules.
    /// Words for a block as a thing to lift: "the block", "the ban", "the shutdown", "the lock".
    static let blockWords: Set<Key> = [.block, .shutdown, .lock, .pause]

    /// "Cancel bedtime", "turn homework mode off", "no bedtime tonight": a schedule named right
    /// after a verb that ends it, with no time or other target in the clause (a schedule cannot be
    /// removed on its own, so this is a question, never a new schedule).
    var removesSchedule: Bool {
        guard let kind = kindPositions.first, startTimes.isEmpty, endTimes.isEmpty, windows.isEmpty, untilTimes.isEmpty,
              durations.isEmpty, afterTimes.isEmpty
        else { return false }
        return cues.contains { cue in
            guard cue.at < kind, !targetPositions.contains(where: { $0 > cue.at && $0 < kind }) else { return false }
            switch cue.key {
            case .end, .undo, .remove, .lift, .stop, .no: return true
            case .turn: return cues.contains { $0.key == .off && $0.at > cue.at }
            default: return false
            }
        } || (cues.first?.key == .off && cues[0].at > kind)  // "study mode off"
    }

    /// "Extend the games block by an hour", "add 30 minutes to the ban": more time on a block is
    /// a longer block, the opposite of the more time `extend` gives, so this is a question.
    var lengthensBlock: Bool {
        cues.contains { cue in [.add, .grant, .extend].contains(cue.key) && blockNounPositions.contains { $0 > cue.at } }
    }

    func head() -> (Head, negated: Bool) {
        var negated = false
        func later(_ n: Int, _ keys: [Key]) -> Bool { cues[(n + 1)...].contains { keys.contains($0.key) } }
        func previous(_ n: Int, _ key: Key) -> Bool {
            cues[..<n].last(where: { $0.key != .not })?.key == key
        }
        let hasDuration = durations.contains { !$0.delay }
        let moreDuration = durations.contains { $0.more && !$0.delay }
        let onlyKind = only && (categories == [.social] || categories == [.education])
        /// "the block", "the ban", "the shutdown" after a verb that lifts it; whether it is the whole device's.
        func liftsBlock(_ n: Int) -> (lifts: Bool, wholeDevice: Bool) {
            guard let object = cues[(n + 1)...].first(where: { Self.blockWords.contains($0.key) }) else { return (restrictions, false) }
            return (true, object.key == .shutdown || object.key == .lock)
        }
        /// A block or limit named after the verb at `cue` ("disable the YouTube ban", "stop the games limit").
        func onABlock(_ cue: (key: Key, at: Int)) -> Bool {
            blockNounPositions.contains { $0 > cue.at } && !blockNounPositions.contains(cue.at)
        }
        var resolved: Head?
        loop: for (n, cue) in cues.enumerated() {
            switch cue.key {
            case .not:
                negated = true
            case .no:
                // "no more blocking YouTube": the block is what is refused
                if let next = cues[(n + 1)...].first(where: { $0.key != .more }), Self.blockWords.contains(next.key) {
                    negated = true
                    continue loop
                }
                if let first = targetPositions.first(where: { $0 > cue.at }), restrictionPositions.contains(first) {
                    resolved = .allow(permissive: false, needsTarget: false)
                } else {
                    resolved = .block(needsTarget: true)
                }
            case .block:
                // "disable the YouTube ban": the verb acts on the block named after it
                resolved = previous(n, .stop) || onABlock(cue) ? .allow(permissive: false, needsTarget: true) : .block(needsTarget: true)
            case .shutdown, .lock, .timeUp, .shut:
                resolved = .block(needsTarget: false)
            case .over:
                if everything { resolved = .block(needsTarget: false) }
            case .pause:
                // "suspend the YouTube ban" lifts it
                resolved = onABlock(cue) ? .allow(permissive: false, needsTarget: true) : .block(needsTarget: true)
            case .cut, .enough:
                resolved = .block(needsTarget: true)
            case .turn:
                if later(n, [.off, .out, .down]) {
                    // "turn off the block on YouTube" lifts it
                    resolved = onABlock(cue) ? .allow(permissive: false, needsTarget: true) : .block(needsTarget: true)
                } else if later(n, [.on, .back]) {
                    // "turn the YouTube block back on" restricts again
                    resolved = !kinds.isEmpty ? .schedule : onABlock(cue) ? .block(needsTarget: true) : .allow(permissive: false, needsTarget: true)
                }
            case .take:
                // "take Roblox off the block list" lifts; "take her iPad away" blocks
                let (lifts, whole) = liftsBlock(n)
                if lifts {
                    resolved = .allow(permissive: false, needsTarget: !whole && !restrictions)
                } else if later(n, [.away, .off, .out]) {
                    resolved = .block(needsTarget: true)
                }
            case .stop:
                if n + 1 < cues.count, cues[n + 1].key == .block { continue loop }
                // "stop the games limit" lifts it
                resolved = onABlock(cue) ? .allow(permissive: false, needsTarget: true) : .block(needsTarget: true)
            case .remove:
                // "remove the block on Minecraft" lifts; "remove TikTok from her phone" blocks
                let (lifts, whole) = liftsBlock(n)
                resolved = lifts ? .allow(permissive: false, needsTarget: !whole && !restrictions) : .block(needsTarget: true)
            case .allow:
                let next = n + 1 < cues.count ? cues[n + 1].key : nil
                resolved = moreDuration || moreTime || next == .stay ? .extend : .allow(permissive: true, needsTarget: true)
            case .unblock, .lift:
                resolved = .allow(permissive: false, needsTarget: true)
            case .end:
                let (lifts, whole) = liftsBlock(n)
                if lifts { resolved = .allow(permissive: false, needsTarget: !whole && !restrictions) }
            case .undo:
                let (lifts, whole) = liftsBlock(n)
                resolved = .allow(permissive: false, needsTarget: !(lifts && (whole || restrictions)))
            case .freeTime:
                resolved = .allow(permissive: false, needsTarget: false)
            case .letVerb:
                let next = n + 1 < cues.count ? cues[n + 1].key : nil
                switch next {
                case .have?, .get?:
                    resolved = hasDuration || moreTime ? .extend
                        : later(n, [.back]) ? .allow(permissive: false, needsTarget: true) : .allow(permissive: true, needsTarget: true)
                case .stay?:
                    resolved = .extend
                case .off?:
                    // "let him off the grounding" lifts it; "let him off the Xbox" may be getting him off it
                    resolved = restrictions || !blockNounPositions.isEmpty ? .allow(permissive: false, needsTarget: true) : Head.none
                default:
                    resolved = moreDuration || (hasDuration && !(next == .use || next == .on)) ? .extend : .allow(permissive: true, needsTarget: true)
                }
            case .give:
                if hasDuration || moreTime || durations.contains(where: \.vague) || !untilTimes.isEmpty {
                    resolved = .extend
                } else if later(n, [.back]) {
                    resolved = .allow(permissive: false, needsTarget: true)
                }
            case .add, .grant, .extend:
                resolved = .extend
            case .have, .get:
                if n + 1 < cues.count, cues[n + 1].key == .off {
                    resolved = .block(needsTarget: true)
                } else if hasDuration || moreTime {
                    resolved = .extend
                } else if later(n, [.back]) {
                    resolved = .allow(permissive: false, needsTarget: true)
                } else if previous(n, .modal), hasTarget {
                    resolved = .allow(permissive: true, needsTarget: true)
                }
            case .stay:
                resolved = .extend
            case .use:
                if cues[..<n].contains(where: { $0.key == .want }) || previous(n, .modal) {
                    resolved = .allow(permissive: true, needsTarget: true)
                }
            case .setVerb:
                if !kinds.isEmpty || onlyKind { resolved = .schedule }
            case .off:
                if n == 0 || (n == 1 && cues[0].key == .no), let first = targetPositions.first, first < cue.at {
                    resolved = .block(needsTarget: true)
                }
            default:
                break
            }
            if resolved != nil { break }
        }
        if resolved == nil || resolved == .allow(permissive: true, needsTarget: true), onlyKind || (!kinds.isEmpty && resolved == nil) {
            return (.schedule, negated)
        }
        if let resolved { return (resolved, negated) }
        if moreDuration || cues.contains(where: { $0.key == .another }) {
            return (.extend, negated)
        }
        return (.none, negated)
    }
}

/// Reads a clause's slots as one command, or the question to ask instead.
struct CommandBuilder {
    let slots: ClauseSlots
    let unexplained: [String]
    let now: Date
    let timeZone: TimeZone
    let addressee: String?

    /// Minutes a bedtime may last at most (a night and the evening before it).
    static let longestBedtime = 15 * 60
    /// Minutes homework or social-only time may last at most.
    static let longestDaytimeSchedule = 8 * 60

    private static let examples = "For example: “Block games for 2 hours”, “Give Sam 10 more minutes”, “Bedtime at 9 on school nights”."

    func build() -> Interpretation {
        if let app = slots.unknownTargets.first {
            return .clarify(question: "I don't know an app called “\(app)”. Which app do you mean?")
        }
        if !unexplained.isEmpty {
            return .clarify(question: "I'm not sure what you mean by “\(unexplained.joined(separator: " "))”. Could you say it another way? \(Self.examples)")
        }
        let child: String?
        switch resolveChild() {
        case .success(let name): child = name
        case .failure(let question): return .clarify(question: question.text)
        }
        var (head, negated) = slots.head()
        if negated {
            switch head {
            case .block(let needsTarget): head = .allow(permissive: false, needsTarget: needsTarget)
            case .allow(permissive: true, _): head = .block(needsTarget: true)
            case .allow(permissive: false, _):
                return .clarify(question: "Leave things as they are, then? Tell me what to change, e.g. “Block \(targetName ?? "YouTube")”.")
            case .extend:
                return .clarify(question: "No extra time, then. Should I do something else, e.g. end screen time now?")
            case .schedule, .none:
                return .clarify(question: "What would you like me to do instead? \(Self.examples)")
            }
        }
        if slots.lengthensBlock {
            return .clarify(question: "I can't make a block last longer. Should I block \(targetName ?? "it") for a time from now (say “Block \(targetName ?? "games") for 1 hour”), or give more time (“Give 10 more minutes”)?")
        }
        if slots.removesSchedule {
            return .clarify(question: "I can't remove a schedule on its own. Lifting all restrictions ends it too (say “Unblock everything”): should I do that?")
        }
        if slots.budget || (head == .none && slots.restrictions && !slots.durations.isEmpty) {
            return .clarify(question: "I can't set a daily allowance. I can block \(targetName ?? "it") now for a time or until a time: which do you want?")
        }
        let result: Result<ParentCommand, Question>
        switch head {
        case .block(let needsTarget): result = lightsOut(needsTarget: needsTarget) ?? block(needsTarget: needsTarget)
        case .allow(_, let needsTarget): result = allow(needsTarget: needsTarget)
        case .extend: result = extend()
        case .schedule: result = schedule()
        case .none: return .clarify(question: "I'm not sure what to do. \(Self.examples)")
        }
        switch result {
        case .success(let command): return .command(command, child: child)
        case .failure(let question): return .clarify(question: question.text)
        }
    }

    struct Question: Error { var text: String }

    private var targetName: String? {
        if let app = slots.apps.first { return AppCatalog.standard.displayName(for: app) }
        return slots.categories.first.map(\.rawValue)
    }

    private func resolveChild() -> Result<String?, Question> {
        var names = slots.names
        if let addressee, !names.contains(where: { $0.lowercased() == addressee.lowercased() }) { names.insert(addressee, at: 0) }
        if names.count > 1 {
            return .failure(Question(text: "I can send a command to one child at a time: \(names.joined(separator: " or "))?"))
        }
        if let name = names.first { return .success(name) }
        if slots.plural { return .success(nil) }
        return .success(slots.pronouns.first)
    }

    private func make(_ action: ParentCommand.Action, duration: Int? = nil, apps: [String]? = nil,
                      categories: [ParentCommand.Category]? = nil, until: Date? = nil, condition: String? = nil,
                      schedule: ParentCommand.Schedule? = nil) -> Result<ParentCommand, Question> {
        do {
            let command = try ParentCommand(
                action: action, durationSeconds: duration, apps: apps, categories: categories,
                until: until.map(RFC3339.format), condition: condition, schedule: schedule)
            try command.validate(now: now)
            return .success(command)
        } catch {
            return .failure(Question(text: "I couldn't make a valid command of that (\(error)). Could you rephrase it?"))
        }
    }

    private struct Timing {
        var duration: Int?
        var until: Date?
        var condition: String?
    }

    /// The one length, end or condition of a block or an allowance, starting now.
    private func timing(_ verb: String) -> Result<Timing, Question> {
        let lengths = slots.durations.filter { !$0.delay }
        if !slots.repeats.isEmpty {
            return .failure(Question(text: "I can't \(verb) on a repeating schedule; I can \(verb) it now for a time, or set a bedtime, homework or social-only schedule. Which would you like?"))
        }
        if slots.futureStart || !slots.afterTimes.isEmpty || !slots.windows.isEmpty || !slots.startTimes.isEmpty
            || lengths.count < slots.durations.count {
            return .failure(Question(text: "I can only \(verb) starting now, for a time or until a time or a task is done (or set a bedtime, homework or social-only schedule). Should I \(verb) it now?"))
        }
        let ends = slots.untilTimes.count + slots.periods.count + (slots.weekendWord ? 1 : 0)
        if lengths.count > 1 || slots.conditions.count > 1 || ends > 1 || (lengths.count + ends + slots.conditions.count > 1) {
            return .failure(Question(text: "Should that be for a length of time, until a time, or until a task is done? I can do one of them."))
        }
        var timing = Timing()
        if let length = lengths.first {
            guard !length.vague else { return .failure(Question(text: "For how long?")) }
            guard ParentCommand.durationRange.contains(length.seconds) else {
                return .failure(Question(text: "I can set from 1 second to 7 days. For how long?"))
            }
            timing.duration = length.seconds
        }
        if let expression = slots.untilTimes.first {
            switch TimeResolver.instant(expression, now: now, timeZone: timeZone) {
            case .instant(let date): timing.until = date
            case .clarify(let question): return .failure(Question(text: question))
            }
        }
        let calendar = TimeResolver.calendar(timeZone)
        let tomorrow = calendar.date(byAdding: .day, value: 1, to: calendar.startOfDay(for: now))!
        if let period = slots.periods.first {
            switch period {
            case .restOfDay: timing.until = tomorrow
            case .tonight:
                let morning = TimeResolver.at(TimeResolver.morningHour, 0, on: calendar.startOfDay(for: now), calendar)
                // Early in the morning "tonight" may be what is left of this night or the coming one:
                // ending at 07:00 would then leave the coming night unrestricted.
                if morning > now, calendar.component(.hour, from: now) >= TimeResolver.nightOverHour {
                    return .failure(Question(text: "Until 07:00 this morning, or through tonight until 07:00 tomorrow?"))
                }
                // "no games tonight" at 09:00: from now, the whole day would go with the night
                if morning <= now, calendar.component(.hour, from: now) < TimeResolver.tonightAheadHour {
                    return .failure(Question(text: "Tonight is hours away, and I can only \(verb) starting now. Should I \(verb) from now until 07:00 tomorrow\(verb == "block" ? ", or set a bedtime for tonight" : ", or would you rather ask this evening")?"))
                }
                timing.until = morning > now ? morning : TimeResolver.at(TimeResolver.morningHour, 0, on: tomorrow, calendar)
            }
        }
        if slots.weekendWord {
            let weekday = calendar.component(.weekday, from: now)
            guard weekday == 6 || weekday == 7 || weekday == 1 else {
                return .failure(Question(text: "The weekend hasn't started yet. Should I \(verb) it from now until Monday morning, or would you rather ask again on Friday?"))
            }
            let daysToMonday = (2 - weekday + 7) % 7
            timing.until = calendar.date(byAdding: .day, value: daysToMonday, to: calendar.startOfDay(for: now))
        }
        if let until = timing.until, until.timeIntervalSince(now) > Double(ParentCommand.durationRange.upperBound) {
            return .failure(Question(text: "That is more than 7 days away; I can set up to 7 days. Until when?"))
        }
        timing.condition = slots.conditions.first
        return .success(timing)
    }

    private func block(needsTarget: Bool) -> Result<ParentCommand, Question> {
        if needsTarget && !slots.hasTarget {
            return .failure(Question(text: "What should I block: an app (e.g. YouTube), a category (games, social media, videos), or everything?"))
        }
        if slots.restrictions && slots.apps.isEmpty && slots.categories.isEmpty {
            return .failure(Question(text: "Should I lift the restrictions, or block something?"))
        }
        let timing: Timing
        switch self.timing("block") {
        case .success(let t): timing = t
        case .failure(let q): return .failure(q)
        }
        let categories = slots.categories.isEmpty ? nil : slots.categories
        if !slots.apps.isEmpty {
            return make(.blockApp, duration: timing.duration, apps: slots.apps, categories: categories, until: timing.until, condition: timing.condition)
        }
        return make(.shutdown, duration: timing.duration, categories: categories, until: timing.until, condition: timing.condition)
    }

    private func allow(needsTarget: Bool) -> Result<ParentCommand, Question> {
        if needsTarget && !slots.hasTarget {
            return .failure(Question(text: "What should I allow: an app, a category, or everything?"))
        }
        let timing: Timing
        switch self.timing("lift restrictions") {
        case .success(let t): timing = t
        case .failure(let q): return .failure(q)
        }
        if timing.condition != nil {
            return .failure(Question(text: "Allowing until a task is done isn't something I can check. Should I allow it for a length of time instead?"))
        }
        return make(.allow, duration: timing.duration, apps: slots.apps.isEmpty ? nil : slots.apps,
                    categories: slots.categories.isEmpty ? nil : slots.categories, until: timing.until)
    }

    private func extend() -> Result<ParentCommand, Question> {
        let lengths = slots.durations.filter { !$0.delay }
        let apps = slots.apps.isEmpty ? nil : slots.apps
        let categories = slots.categories.isEmpty ? nil : slots.categories
        if !slots.conditions.isEmpty || slots.futureStart || !slots.afterTimes.isEmpty || !slots.windows.isEmpty || !slots.repeats.isEmpty {
            return .failure(Question(text: "How much more time should I give, in minutes?"))
        }
        // "an extra hour tonight", "she can stay up till 10" at 09:00: more time is given now, and
        // would be used up by the evening it was meant for
        if isForTonight, (TimeResolver.nightOverHour..<TimeResolver.tonightAheadHour).contains(TimeResolver.calendar(timeZone).component(.hour, from: now)) {
            return .failure(Question(text: "More time starts now, and tonight is hours away. Should I give it now, or would you rather ask this evening?"))
        }
        if lengths.count == 1, slots.untilTimes.isEmpty {
            guard !lengths[0].vague else { return .failure(Question(text: "How many more minutes?")) }
            guard ParentCommand.durationRange.contains(lengths[0].seconds) else {
                return .failure(Question(text: "I can extend by 1 second to 7 days. How much more time?"))
            }
            return make(.extend, duration: lengths[0].seconds, apps: apps, categories: categories)
        }
        if lengths.isEmpty, slots.untilTimes.count == 1 {
            switch TimeResolver.instant(slots.untilTimes[0], now: now, timeZone: timeZone) {
            case .instant(let date): return make(.extend, apps: apps, categories: categories, until: date)
            case .clarify(let question): return .failure(Question(text: question))
            }
        }
        return .failure(Question(text: "How much more time should I give?"))
    }

    /// More time meant for tonight: "tonight", "this evening", "at night", or staying up (later than bedtime).
    private var isForTonight: Bool {
        slots.periods.contains(.tonight) || slots.dayWords.contains(.tonight) || slots.kinds.contains(.bedtime)
            || slots.staysUp || slots.untilTimes.contains { $0.day == .tonight || $0.part == .evening || $0.part == .night }
    }

    /// The clause as a schedule; `kind`, when the clause's words name none ("No screens after 8").
    func schedule(_ kind: ParentCommand.Schedule.Kind? = nil) -> Result<ParentCommand, Question> {
        var kinds = slots.kinds
        if let kind, kinds.isEmpty { kinds.append(kind) }
        if slots.only, slots.categories == [.education] { kinds.append(.educational) }
        if slots.only, slots.categories == [.social] { kinds.append(.socialOnly) }
        guard let kind = kinds.first else { return .failure(Question(text: "Which schedule: bedtime, homework time or social-only time?")) }
        guard kinds.allSatisfy({ $0 == kind }) else {
            return .failure(Question(text: "One schedule at a time, please: bedtime, homework time or social-only time?"))
        }
        let name = kind == .bedtime ? "bedtime" : kind == .educational ? "homework time" : "social-only time"
        let starts = slots.windows.map(\.start) + slots.startTimes + slots.afterTimes
        let lengths = slots.durations.filter { !$0.delay }
        var ends = slots.windows.map(\.end) + slots.endTimes
        if !slots.untilTimes.isEmpty { ends += slots.untilTimes }
        if starts.count > 1 || ends.count > 1 || lengths.count > 1 || !slots.conditions.isEmpty || slots.futureStart
            || !slots.periods.filter({ $0 == .restOfDay }).isEmpty && slots.dayWords.isEmpty {
            return .failure(Question(text: "I can set one \(name) window at a time. What start and end times should it have, and on which days?"))
        }
        if (starts + ends).contains(where: { $0.day != nil && $0.day != .today && $0.day != .tonight }) || slots.dayWords.contains(.tomorrow) {
            return .failure(Question(text: "I can set a one-off \(name) for today, or one that repeats every day, on school nights or on weekends. Which should it be?"))
        }
        let evening = slots.dayWords.contains(.tonight) || slots.eveningWord
            || (starts + ends).contains { $0.part == .evening || $0.part == .night }
        let repeating = !slots.repeats.isEmpty || slots.weekendWord
        let start: LocalTime
        if let expression = starts.first {
            guard var clock = expression.clock else { return .failure(Question(text: "What time should \(name) start?")) }
            // "8 to 9pm": the end's pm is the start's too when both then fall in the evening
            if clock.meridiem == nil, !clock.exact, let endClock = ends.first?.clock, endClock.meridiem == .pm, clock.hour < 12,
               clock.hour + 12 < endClock.hour % 12 + 12 || (clock.hour + 12 == endClock.hour % 12 + 12 && clock.minute < endClock.minute) {
                clock.meridiem = .pm
                clock.hour += 12
            }
            start = TimeResolver.scheduleStart(clock, kind: kind, evening: evening || expression.day == .tonight
                                               || expression.part == .evening || expression.part == .night)
        } else if repeating {
            // "bedtime mode every night": a start now would repeat at this minute every day
            return .failure(Question(text: "What time should \(name) start?"))
        } else if slots.mode || slots.now || !ends.isEmpty || !lengths.isEmpty {
            start = TimeResolver.localTime(of: now, timeZone)
        } else {
            return .failure(Question(text: "What time should \(name) start?"))
        }
        let end: LocalTime
        if let expression = ends.first {
            guard let clock = expression.clock else { return .failure(Question(text: "What time should \(name) end?")) }
            end = TimeResolver.scheduleEnd(clock, kind: kind, start: start)
        } else if let length = lengths.first {
            guard !length.vague, length.seconds >= 60, length.seconds < 86_400 else {
                return .failure(Question(text: "How long should \(name) last?"))
            }
            let minutes = (start.minutesSinceMidnight + length.seconds / 60) % 1440
            end = LocalTime(hour: minutes / 60, minute: minutes % 60)!
        } else if kind == .bedtime {
            end = LocalTime(hour: BuiltInInterpreter.bedtimeEnd.hour, minute: BuiltInInterpreter.bedtimeEnd.minute)!
        } else {
            return .failure(Question(text: "Until what time should \(name) last?"))
        }
        // "bedtime at 9 am", "bedtime now till 6:30" at 06:34: a night of most of a day is no bedtime ("bedtime
        // mode" now, to the usual morning, is asked for as it stands); homework or social-only time of a night neither.
        let minutes = (end.minutesSinceMidnight - start.minutesSinceMidnight + 1440) % 1440
        let written = !starts.isEmpty || !ends.isEmpty || !lengths.isEmpty
        if written, minutes > (kind == .bedtime ? Self.longestBedtime : Self.longestDaytimeSchedule) {
            return .failure(Question(text: "\(name.prefix(1).uppercased() + name.dropFirst()) from \(start) to \(end) would last \(minutes / 60) hours. What time should it start and end?"))
        }
        // A one-off daytime window written for today that is already over would only run tomorrow (a
        // bedtime "after midnight" is tonight's).
        if kind != .bedtime, !repeating, !starts.isEmpty, end > start, end.minutesSinceMidnight <= TimeResolver.localTime(of: now, timeZone).minutesSinceMidnight {
            return .failure(Question(text: "\(start)–\(end) has already passed today. Should \(name) be tomorrow, or repeat?"))
        }
        var phrases = slots.repeats
        if slots.weekendWord { phrases.append(.named(.weekends)) }
        if !slots.dayWords.isEmpty { phrases.append(.named(.none)) }
        let repeats = phrases.compactMap { $0.resolved(overnight: end <= start) }
        guard repeats.count == phrases.count else {
            if phrases.contains(.nights(.weekdays)) {
                return .failure(Question(text: "School nights are Sunday to Thursday nights, so only an overnight window like a bedtime can repeat on them. Should \(name) be on weekdays (Monday to Friday), every day or on weekends?"))
            }
            if phrases.contains(.nights(.weekends)) {
                return .failure(Question(text: "Weekend nights are Friday and Saturday nights, so only an overnight window like a bedtime can repeat on them. Should \(name) be on weekends (Saturday and Sunday), every day or on weekdays?"))
            }
            return .failure(Question(text: "I can repeat \(name) every day, on weekdays or on weekends (a bedtime: Sunday to Thursday nights, or Friday and Saturday nights). Which should it be?"))
        }
        guard Set(repeats).count <= 1 else {
            return .failure(Question(text: "On which days should \(name) apply: every day, school nights, or weekends?"))
        }
        guard start != end else { return .failure(Question(text: "\(name.capitalized) would start and end at \(start). When should it end?")) }
        let window = ParentCommand.Schedule(start: start.description, end: end.description, type: kind, repeat: repeats.first ?? ParentCommand.Schedule.Repeat.none)
        let apps = slots.apps.isEmpty ? nil : slots.apps
        if apps != nil { return .failure(Question(text: "A schedule applies to the whole device. Should I block \(targetName ?? "the app") instead?")) }
        return make(.schedule, schedule: window)
    }
}
