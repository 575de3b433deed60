import Foundation

/// A slot as the classifier sees it, in the device's local time, and its feature vector.
struct SlotObservation: Sendable, Hashable {
    /// Minutes since local midnight.
    var minuteOfDay: Double
    /// 0 = Monday … 6 = Sunday.
    var weekday: Int
    var minutes: Double
    var activity: MotionActivity

    init(minuteOfDay: Double, weekday: Int, minutes: Double, activity: MotionActivity) {
        self.minuteOfDay = minuteOfDay
        self.weekday = weekday
        self.minutes = minutes
        self.activity = activity
    }

    init(start: Int64, duration: Int64, activity: MotionActivity, timeZone: TimeZone) {
        let offset = Int64(timeZone.secondsFromGMT(for: Date(milliseconds: start))) * 1000
        let local = start + offset
        let day: Int64 = 86_400_000
        let days = local >= 0 ? local / day : (local - day + 1) / day
        minuteOfDay = Double(local - days * day) / 60_000
        weekday = Int(((days + 3) % 7 + 7) % 7)
        minutes = Double(max(duration, 0)) / 60_000
        self.activity = activity
    }

    /// Minutes within weekday working hours (09:00–17:00) on the slot's first day.
    var workingMinutes: Double {
        guard weekday < 5 else { return 0 }
        return max(0, min(minuteOfDay + minutes, 17 * 60) - max(minuteOfDay, 9 * 60))
    }

    static let activities: [MotionActivity] = [.stationary, .walking, .running, .cycling, .automotive]
    static let featureCount = 7 + activities.count

    /// Start time of day and weekday on the unit circle (23:59 next to 00:00, Sunday next to
    /// Monday), duration on a log scale over [-1, 1] (a minute to a day), location in the
    /// user's place frame, and the top activity one-hot.
    func features(location: (east: Double, north: Double)) -> [Double] {
        let time = 2 * Double.pi * minuteOfDay / 1440
        let day = 2 * Double.pi * Double(weekday) / 7
        let duration = min(log(1 + minutes) / log(1 + 1440), 1) * 2 - 1
        var row = [sin(time), cos(time), duration, sin(day), cos(day), location.east, location.north]
        row += Self.activities.map { $0 == activity ? 1 : 0 }
        return row
    }
}
