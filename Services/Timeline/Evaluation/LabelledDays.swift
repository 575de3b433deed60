import Foundation
import GuardianTimeline

/// Several made-up people's days with what each was really doing: a phone's events for the
/// timeline and the ground-truth slots to measure it against. Deterministic for a seed.
///
/// The default period (two weeks from Monday 2026-10-19 in Europe/Berlin) crosses the end of
/// summer time; one day per person has no data (the phone was off); nights out and night shifts
/// run through midnight. `heldOut` and `training` use disjoint seeds, so what is tuned or learned
/// on one is measured on the other.
public struct LabelledDays: Sendable {
    /// What a person did from `start` to `end` (consecutive pieces of one category joined).
    public struct TruthSlot: Sendable, Hashable {
        public var start: Int64
        public var end: Int64
        public var category: TimelineCategory
    }

    /// One person's events and truth.
    public struct PersonDays: Sendable {
        public var person: SyntheticPerson
        public var events: OfflineTimeline.DeviceEvents
        /// Contiguous from the first day's midnight to the morning after the last day.
        public var truth: [TruthSlot]
        /// Stretches without any event (the phone was off): no slots expected there.
        public var noData: [Range<Int64>]

        /// When the phone showed a change: every motion event of a move (not `stationary` or
        /// `unknown`) and every time it went on or off its charger.
        public var signs: Signs {
            let moves = events.motion.filter { $0.activity != .stationary && $0.activity != .unknown }.map(\.timestamp)
            return Signs(times: (moves + events.charges.map(\.timestamp)).sorted())
        }

        /// What the person did for most of `[from, to)` (`unknown` for time without data).
        public func category(from: Int64, to: Int64) -> TimelineCategory {
            var time: [TimelineCategory: Int64] = [:]
            for slot in truth where slot.end > from && slot.start < to {
                time[slot.category, default: 0] += min(slot.end, to) - max(slot.start, from)
            }
            return time.max { ($0.value, $1.key.rawValue) < ($1.value, $0.key.rawValue) }?.key ?? .unknown
        }
    }

    /// Instants the phone showed a change at, in time order.
    public struct Signs: Sendable {
        public var times: [Int64]

        /// Whether one lies within `tolerance` of `instant`.
        public func near(_ instant: Int64, within tolerance: Int64) -> Bool {
            let index = times.partitioningIndex { $0 >= instant - tolerance }
            return index < times.endIndex && times[index] <= instant + tolerance
        }
    }

    public var timeZone: TimeZone
    public var firstDay: String
    public var days: Int
    public var people: [PersonDays]

    public static let heldOutSeed: UInt64 = 1_000_003
    public static let trainingSeed: UInt64 = 17

    /// Held-out days: two people of each of `routines`.
    public static func heldOut(days: Int = 14, routines: [SyntheticPerson.Routine] = SyntheticPerson.Routine.everyday) -> LabelledDays {
        LabelledDays(people: 2 * routines.count, days: days, seed: heldOutSeed, routines: routines)
    }

    /// Days for learning and tuning, never measured.
    public static func training(days: Int = 14, routines: [SyntheticPerson.Routine] = SyntheticPerson.Routine.everyday) -> LabelledDays {
        LabelledDays(people: 2 * routines.count, days: days, seed: trainingSeed, routines: routines)
    }

    /// `people` people (`routines` in turn), `days` days from local midnight of `firstDay`
    /// (`YYYY-MM-DD`). Each person has a seed of their own, from `seed`, their routine and their
    /// number among its people: a routine's people are the same whichever routines are chosen.
    /// With `everyWalkShown`, every person's phone shows each walk at home (`SyntheticPerson.showsEveryWalk`).
    public init(
        people: Int, firstDay: String = "2026-10-19", days: Int = 14, timeZone: TimeZone = TimeZone(identifier: "Europe/Berlin")!,
        seed: UInt64, spacing: ClosedRange<Int64> = 15_000...45_000, routines: [SyntheticPerson.Routine] = SyntheticPerson.Routine.everyday,
        everyWalkShown: Bool = false
    ) {
        self.timeZone = timeZone
        self.firstDay = firstDay
        self.days = days
        self.people = (0..<people).map { index in
            let routine = routines[index % routines.count]
            let kind = SyntheticPerson.Routine.allCases.firstIndex(of: routine)!
            let number = index / routines.count
            // The first three routines keep the seeds they had when they were the only ones.
            let personSeed = kind < 3 ? seed &* 1_000 &+ UInt64(number * 3 + kind) : seed &* 1_000 &+ UInt64(100 * kind + number)
            var person = SyntheticPerson(deviceId: "\(routine.rawValue)-\(index + 1)", routine: routine, seed: personSeed)
            person.showsEveryWalk = everyWalkShown
            return Self.live(person, firstDay: firstDay, days: days, timeZone: timeZone, seed: personSeed, spacing: spacing)
        }
    }

    static func live(
        _ person: SyntheticPerson, firstDay: String, days: Int, timeZone: TimeZone, seed: UInt64, spacing: ClosedRange<Int64>
    ) -> PersonDays {
        var planner = RoutinePlanner(person: person, firstDay: firstDay, timeZone: timeZone, seed: seed &+ 1)
        let phoneOffDay = days >= 5 ? Int(seed % UInt64(days - 3)) + 2 : nil
        for day in 0..<days {
            planner.phoneOff = day == phoneOffDay
            planner.live(day: day)
        }
        planner.phoneOff = false
        // The last night runs to the morning after, so the last day ends as a night does.
        planner.sleep(until: max(planner.local(day: days, hour: 7, minute: 0), planner.cursor + 60_000))

        var emitter = SensorEmitter(seed: seed &+ 2, spacing: spacing)
        for piece in planner.pieces { emitter.emit(piece) }
        var truth: [TruthSlot] = []
        var noData: [Range<Int64>] = []
        for piece in planner.pieces {
            if piece.phoneOff {
                if let last = noData.last, last.upperBound == piece.start {
                    noData[noData.count - 1] = last.lowerBound..<piece.end
                } else {
                    noData.append(piece.start..<piece.end)
                }
            }
            if let last = truth.last, last.category == piece.category {
                truth[truth.count - 1].end = piece.end
            } else {
                truth.append(TruthSlot(start: piece.start, end: piece.end, category: piece.category))
            }
        }
        let events = OfflineTimeline.DeviceEvents(
            deviceId: person.deviceId, motion: emitter.motion, locations: emitter.locations.sorted { $0.timestamp < $1.timestamp },
            charges: planner.charges)
        return PersonDays(person: person, events: events, truth: truth, noData: noData)
    }

    /// The instants the local days start, and the end of the last.
    public var dayStarts: [Int64] {
        let planner = RoutinePlanner(person: SyntheticPerson(deviceId: "calendar", routine: .officeWorker, seed: 0), firstDay: firstDay, timeZone: timeZone, seed: 0)
        return (0...days).map { planner.local(day: $0, hour: 0, minute: 0) }
    }
}
