import Foundation

/// Where a long stay splits as a person would draw it. The night begins after the last sign of
/// activity (movement too short to be a slot of its own, the charger plugged in) before a long
/// stillness, and ends with the first sign after it. Where the phone shows nothing (left on a table all evening, or all
/// morning), the stillness is also cut at every quarter hour of the evening and of the morning,
/// the pieces one stillness still: labelling then puts the night's ends at the person's usual
/// bedtime and time of getting up (`SleepHabits`), which the timeline learns as days go by.
struct NightSplit: Sendable {
    /// The device's local days; `nil` splits only where the phone shows it.
    var days: LocalDays?

    /// A stillness at least this long is a rest.
    static let rest: Int64 = 3 * 60 * 60_000
    /// A stillness the data ends in (`open`) this long may be a night begun: its evening is cut at
    /// the quarter hours too, for labelling to put the night at the usual bedtime.
    static let restBegun: Int64 = 60 * 60_000
    /// Pieces shorter than this are not split off where the phone shows a sign.
    static let shortestPiece: Int64 = 30 * 60_000
    /// Local hours: an evening starts from `eveningStart`; from `lateEvening` a stillness through the night is the night.
    static let eveningStart = 12, lateEvening = 20
    /// The local hours a night may begin in (from `lateEvening` to `latestBedtime`) and end in, cut at every `quarter`.
    static let latestBedtime = 25, earliestWakeUp = 5, latestWakeUp = 11
    static let quarter: Int64 = 15 * 60_000
    /// A stay ending this close to the charger plugged in or out ends with it.
    static let signNear: Int64 = 2 * 60_000

    /// The instants to split a stay of `events` from `start` to `end` at, in order, each with
    /// whether a sign of activity ends the piece before it (`true`) or the stillness goes on
    /// (`nil`). `signs` (in order) are other signs than movement: the charger plugged in or out.
    /// `open`: the data ends with the stay (the night may be under way).
    func cuts(_ events: ArraySlice<AnnotatedEvent>, start: Int64, end: Int64, signs: [Int64] = [], open: Bool = false) -> [(at: Int64, endsMoving: Bool?)] {
        // The charger plugged in or out always ends a piece of the stay: someone handled the phone.
        let charger = signs[signs.partitioningIndex { $0 > start + Self.signNear }...].prefix { $0 < end - Self.signNear }
            .map { (at: $0, endsMoving: Bool?.some(true)) }
        let rest = open ? Self.restBegun : Self.rest
        guard end - start >= rest + Self.shortestPiece else { return charger }
        var still: Range<Int64>?
        var from: Int64?
        var sign = signs.partitioningIndex { $0 > start }
        for event in events {
            guard event.activity == .stationary else {
                from = nil
                while sign < signs.count, signs[sign] < event.end { sign += 1 }
                continue
            }
            var runStart = from ?? event.start
            while sign < signs.count, signs[sign] < event.end {
                if signs[sign] > runStart {
                    if signs[sign] - runStart > still?.count ?? 0 { still = runStart..<signs[sign] }
                    runStart = signs[sign]
                }
                sign += 1
            }
            let run = runStart..<event.end
            from = run.lowerBound
            if run.count > still?.count ?? 0 { still = run }
        }
        var cuts: [(at: Int64, endsMoving: Bool?)] = []
        var range = start..<end
        if let still, still.count >= rest {
            if still.lowerBound - start >= Self.shortestPiece { cuts.append((still.lowerBound, true)) }
            if end - still.upperBound >= Self.shortestPiece { cuts.append((still.upperBound, true)) }
            range = still
        }
        cuts += charger.filter { sign in !cuts.contains { $0.at == sign.at } }
        return cuts + quarters(in: range, open: open).filter { at in !cuts.contains { $0.at == at } }.map { ($0, nil) }
    }

    /// For a rest, the quarter hours of the evening (a rest long after each) and of the morning
    /// (a rest long before each) it holds: where a night the phone shows no end of may begin or end.
    /// In a stillness the data ends in (`open`), every evening quarter hour: the rest after it is under way.
    func quarters(in still: Range<Int64>, open: Bool = false) -> [Int64] {
        guard let days, still.count >= (open ? Self.restBegun : Self.rest) else { return [] }
        var cuts: [Int64] = []
        var instant = (still.lowerBound / Self.quarter + 1) * Self.quarter
        while instant < still.upperBound {
            let hour = Int(days.minute(of: instant) / 60)
            let evening = (hour >= Self.lateEvening || hour < Self.latestBedtime - 24) && (open || still.upperBound - instant >= Self.rest)
            let morning = (Self.earliestWakeUp..<Self.latestWakeUp).contains(hour) && instant - still.lowerBound >= Self.rest
            if evening || morning { cuts.append(instant) }
            instant += Self.quarter
        }
        return cuts
    }
}
