import Foundation

/// Consecutive local days from a first date, in one time zone: where synthetic routines are laid out.
struct LocalDays {
    var calendar: Calendar
    let firstDay: DateComponents

    /// `firstDay` is a local date `YYYY-MM-DD`.
    init(firstDay: String, timeZone: TimeZone) {
        calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = firstDay.split(separator: "-").map { Int($0)! }
        self.firstDay = DateComponents(year: parts[0], month: parts[1], day: parts[2])
    }

    /// The instant (ms) of a local time on the `day`-th day; minutes may run past midnight.
    func instant(day: Int, hour: Int, minute: Double) -> Int64 {
        var noon = firstDay
        noon.hour = 12
        let date = calendar.date(byAdding: .day, value: day, to: calendar.date(from: noon)!)!
        var components = calendar.dateComponents([.year, .month, .day], from: date)
        components.hour = hour
        return calendar.date(from: components)!.milliseconds + Int64(minute * 60_000)
    }

    /// 0 = Monday … 6 = Sunday.
    func weekday(_ day: Int) -> Int {
        (calendar.component(.weekday, from: Date(milliseconds: instant(day: day, hour: 12, minute: 0))) + 5) % 7
    }
}
