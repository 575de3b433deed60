/// When a person usually goes to bed and gets up, before a working day and before a day off,
/// learned from the nights at home whose ends their phone shows (the last sign of activity
/// before the night, the first after it). A phone left on a table shows some evenings ending
/// earlier than they did and some mornings beginning later, so the usual bedtime is a late one
/// of those seen and the usual time of getting up an early one.
struct SleepHabits: Sendable, Hashable {
    /// A night seen: its start in local minutes after the evening's midnight (past 1440 after
    /// midnight), its end after the morning's, either unknown; whether the morning is a day off.
    struct Night: Sendable, Hashable {
        var start: Double?
        var end: Double?
        var dayOff: Bool
        /// When the stillness at home before the walk `start` is began, when it began from noon: the
        /// walk may have been one in the night (`isNightWalk`), not going to bed.
        var stillSince: Double?
        /// Begun as the charger was plugged in (a walk to bed between, or none): the bedtime for certain.
        var atCharger = false
    }

    /// A walk this many minutes or more after the bedtime, the phone still at home since before the
    /// bedtime, is a walk in the night (the bathroom), not going to bed: a child in bed at 21:00
    /// whose phone lies still from 20:24 until a walk at 23:48.
    static let nightWalk = 120.0

    /// Whether a walk at `walk` (local minutes, past midnight as more than 1440), the phone still at
    /// home since `stillSince`, was one in the night (`nightWalk`).
    func isNightWalk(at walk: Double, stillSince: Double) -> Bool {
        stillSince < bedtime && walk >= bedtime + Self.nightWalk
    }

    /// Minutes after the evening's midnight, and after the morning's.
    var bedtime: Double
    var wakeUp: Double
    /// A night the phone shows beginning this many minutes before `bedtime`, or ending this
    /// many after `wakeUp`, or more, is taken to begin or end at the usual hour instead.
    var bedtimeMargin = learnedMargin
    var wakeUpMargin = learnedMargin

    static let learnedMargin = 45.0
    /// Whether the bedtime is the person's own, learned from the nights seen, not the usual one.
    var ownBedtime: Bool { bedtimeMargin == Self.learnedMargin }
    /// Whether the bedtime is that of a night seen begun at the charger, while too few are seen for the person's own.
    var bedtimeAtCharger: Bool { bedtimeMargin == Self.chargedBedtimeMargin }
    /// Whether the person's own bedtimes before working days vary less than `steadyBedtimes`: they
    /// keep to a bedtime (before a day off, people keep less to one).
    var steadyBedtime = false
    /// The earliest bedtime of the nights seen whole, of either kind, while too few are seen for the person's own.
    var earliestBedtimeSeen: Double?
    /// An early one of the person's own bedtimes (`earlyShare` of them earlier), once learned.
    var earlyBedtime: Double?
    static let earlyShare = 0.25
    /// A time the person has been in bed by, if the nights seen tell one: an early one of their own
    /// bedtimes (the usual one is the middle or a late one), else a quarter hour before the earliest of
    /// the few nights seen (still from after it, the person may well be in bed: each night's own bedtime
    /// seen is its last walk, after the stillness in question).
    var inBedBy: Double? { ownBedtime ? min(bedtime, earlyBedtime ?? bedtime) : earliestBedtimeSeen.map { $0 - Self.seenBedtimeSpread } }
    /// A night or two seen tell a bedtime to within this many minutes: it varies that much night to night.
    static let seenBedtimeSpread = 15.0
    /// Before enough nights are seen: a still evening gives way to the night at 22:30 (most
    /// adults are in bed between 22:00 and midnight) when it began two hours before (later, the
    /// last sign of activity is going to bed), and a still morning ends at 08:00 when it goes on
    /// two hours past it.
    static let usual = SleepHabits(bedtime: 22 * 60 + 30, wakeUp: 8 * 60, bedtimeMargin: 120, wakeUpMargin: 120)
    /// Nights seen before the person's own hours replace the usual ones (their time of getting up
    /// only if they keep regular hours; a late one of irregular bedtimes is still theirs: a
    /// student up past midnight most nights is not in bed at 22:00).
    static let fewestNights = 3
    /// Until then, the earliest night seen begun at the charger gives the person's bedtime, not the
    /// usual one (a child's 21:00, an adult's 23:15): a still evening gives way to the night then when
    /// it began this many minutes before it.
    static let chargedBedtimeMargin = 60.0
    /// Of the bedtimes seen, this share is earlier than the usual one; of the times of getting up, this share later.
    static let share = 0.9
    /// The same for a carried phone, whose last and first walks are the nights' ends: the middle of them.
    static let carriedShare = 0.5
    /// Bedtimes seen that vary less than this (minutes, the middle half of them) are shown by the
    /// walk to bed itself, on a table too (a retiree in bed by 22:30): the middle of them is taken.
    static let steadyBedtimes = 20.0

    init(bedtime: Double, wakeUp: Double, bedtimeMargin: Double = learnedMargin, wakeUpMargin: Double = learnedMargin) {
        self.bedtime = bedtime
        self.wakeUp = wakeUp
        self.bedtimeMargin = bedtimeMargin
        self.wakeUpMargin = wakeUpMargin
    }

    /// The habits of nights before a day off (`dayOff`) or a working day, from the nights seen
    /// (all of them while too few of the kind are, except a day off's time of getting up: working
    /// days' early mornings say nothing of a lie-in, so it is no earlier than the usual one until
    /// three are seen),
    /// `share` of the bedtimes before the usual one.
    init(_ nights: [Night], dayOff: Bool, share: Double = Self.share) {
        func pick(_ values: (Night) -> Double?) -> [Double] {
            let same = nights.filter { $0.dayOff == dayOff }.compactMap(values)
            return same.count >= Self.fewestNights ? same : nights.compactMap(values)
        }
        // Bedtimes of nights seen whole: one cut short by missing data may have begun anywhere.
        let bedtimes = pick { $0.end == nil ? nil : $0.start }, wakeUps = pick(\.end)
        earliestBedtimeSeen = nights.compactMap { $0.end == nil ? nil : $0.start }.min()
        if bedtimes.count >= Self.fewestNights {
            // Bedtimes kept to within `steadyBedtimes` are going to bed itself: the middle one.
            let steady = Self.quantile(bedtimes, 0.75) - Self.quantile(bedtimes, 0.25) <= Self.steadyBedtimes
            steadyBedtime = steady && !dayOff
            bedtime = Self.quantile(bedtimes, steady ? min(share, Self.carriedShare) : share)
            earlyBedtime = Self.quantile(bedtimes, Self.earlyShare)
        } else if let charged = nights.filter({ $0.end != nil && $0.atCharger }).compactMap(\.start).min() {
            (bedtime, bedtimeMargin) = (charged, Self.chargedBedtimeMargin)
        } else {
            (bedtime, bedtimeMargin) = (Self.usual.bedtime, Self.usual.bedtimeMargin)
        }
        // A lie-in on a day off is no earlier than the usual hour, whatever working days teach.
        let lieIn = dayOff && nights.filter(\.dayOff).compactMap(\.end).count < Self.fewestNights
        if wakeUps.count >= Self.fewestNights, Self.regular(wakeUps), !lieIn || Self.quantile(wakeUps, 1 - share) >= Self.usual.wakeUp {
            wakeUp = Self.quantile(wakeUps, 1 - share)
        } else {
            (wakeUp, wakeUpMargin) = (Self.usual.wakeUp, Self.usual.wakeUpMargin)
        }
    }

    /// Times of getting up that vary more than this between nights (the middle half of them) are
    /// no habit (rotating shifts): the usual one holds then.
    static let widestSpread = 150.0

    static func regular(_ values: [Double]) -> Bool {
        quantile(values, 0.75) - quantile(values, 0.25) <= widestSpread
    }

    static func quantile(_ values: [Double], _ share: Double) -> Double {
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * share).rounded()))]
    }
}
