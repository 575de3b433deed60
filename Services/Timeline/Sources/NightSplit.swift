import Foundation

/// Where a long stay splits as a person would draw it. The night begins after the last sign of
/// activity (movement too short to be a slot of its own) before a long stillness, and ends with
/// the first sign after it. Where the phone shows nothing (left on a table all evening), a stay
/// that began on coming home, or before `lateEvening` after a walk about the place, gives way to
/// the night at `bedtime`, local time; from `lateEvening` on, the last walk about the place is
/// going to bed. A night the phone shows no end of, still hours into the day, ends at `wakeUp`.
struct NightSplit: Sendable {
    /// The device's local days; `nil` splits only where the phone shows it.
    var days: LocalDays?

    /// A stillness at least this long is a rest.
    static let rest: Int64 = 3 * 60 * 60_000
    /// Pieces shorter than this are not split off.
    static let shortestPiece: Int64 = 30 * 60_000
    /// Local hours: an evening starts from `eveningStart` and, when nothing else says, ends at `bedtime`.
    static let eveningStart = 12, lateEvening = 20, bedtime = 22
    /// Local hour a night the phone shows no end of ends, when the stillness goes on `lateMorning` past it.
    static let wakeUp = 8
    static let lateMorning: Int64 = 2 * 60 * 60_000

    /// The instants to split a stay of `events` from `start` to `end` at, in order; `arrived`
    /// when movement of its own (a trip) came before it rather than a walk about the place.
    func cuts(_ events: ArraySlice<AnnotatedEvent>, start: Int64, end: Int64, arrived: Bool) -> [Int64] {
        guard end - start >= Self.rest + Self.shortestPiece else { return [] }
        var still: Range<Int64>?
        var from: Int64?
        for event in events {
            guard event.activity == .stationary else {
                from = nil
                continue
            }
            let run = (from ?? event.start)..<event.end
            from = run.lowerBound
            if run.count > still?.count ?? 0 { still = run }
        }
        var cuts: [Int64] = []
        var rest = start..<end
        if let still, still.count >= Self.rest {
            if still.lowerBound - start >= Self.shortestPiece { cuts.append(still.lowerBound) }
            if end - still.upperBound >= Self.shortestPiece { cuts.append(still.upperBound) }
            rest = still
        }
        if cuts.first.map({ $0 != rest.lowerBound }) ?? true, let bedtime = eveningEnd(of: rest, arrived: arrived), bedtime > rest.lowerBound {
            cuts.insert(bedtime, at: 0)
        }
        if !cuts.contains(rest.upperBound), let morning = morning(in: rest) { cuts.append(morning) }
        return cuts.sorted()
    }

    /// For a stillness through the night that lasts `lateMorning` past `wakeUp` with no sign of
    /// anyone up (a phone on the table all day), `wakeUp`.
    func morning(in still: Range<Int64>) -> Int64? {
        guard let calendar = days?.calendar else { return nil }
        let begin = Date(milliseconds: still.lowerBound)
        let day = calendar.component(.hour, from: begin) < Self.wakeUp ? begin : begin.addingTimeInterval(86_400)
        guard let wake = calendar.date(bySettingHour: Self.wakeUp, minute: 0, second: 0, of: day)?.milliseconds,
              wake - still.lowerBound >= Self.rest, still.upperBound - wake >= Self.lateMorning
        else { return nil }
        return wake
    }

    /// For a stillness that begins in the afternoon or evening and lasts a rest past `bedtime`,
    /// that bedtime (the evening before it an `shortestPiece` at least).
    func eveningEnd(of still: Range<Int64>, arrived: Bool) -> Int64? {
        guard let calendar = days?.calendar else { return nil }
        let begin = Date(milliseconds: still.lowerBound), hour = calendar.component(.hour, from: begin)
        guard hour >= Self.eveningStart, hour < Self.lateEvening || arrived,
              let bedtime = calendar.date(bySettingHour: Self.bedtime, minute: 0, second: 0, of: begin)?.milliseconds,
              bedtime - still.lowerBound >= Self.shortestPiece, still.upperBound - bedtime >= Self.rest
        else { return nil }
        return bedtime
    }
}
