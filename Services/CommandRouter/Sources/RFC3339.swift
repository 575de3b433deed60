import Foundation

/// RFC 3339 timestamps without a formatter: parsing accepts an offset or `Z` and any fraction;
/// formatting gives the contract's output form, UTC with milliseconds.
enum RFC3339 {
    static func format(_ date: Date) -> String {
        let millis = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        let (days, dayMillis) = millis.floorDivided(by: 86_400_000)
        let (year, month, day) = civil(fromDays: days)
        let seconds = Int(dayMillis / 1000)
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(seconds / 3600, 2)):\(pad(seconds / 60 % 60, 2)):\(pad(seconds % 60, 2)).\(pad(Int(dayMillis % 1000), 3))Z"
    }

    static func parse(_ text: String) -> Date? {
        let b = Array(text.utf8)
        func digits(_ at: Int, _ count: Int) -> Int? {
            guard at + count <= b.count else { return nil }
            var value = 0
            for i in at..<(at + count) {
                guard b[i] >= 48, b[i] <= 57 else { return nil }
                value = value * 10 + Int(b[i] - 48)
            }
            return value
        }
        guard b.count >= 20, b[4] == 45, b[7] == 45, b[13] == 58, b[16] == 58, [84, 116, 32].contains(b[10]),
              let year = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2),
              let hour = digits(11, 2), let minute = digits(14, 2), let second = digits(17, 2),
              (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
              hour < 24, minute < 60, second < 61
        else { return nil }
        var index = 19
        var fraction = 0.0
        if b[index] == 46 {
            index += 1
            var scale = 0.1
            let start = index
            while index < b.count, b[index] >= 48, b[index] <= 57 {
                fraction += Double(b[index] - 48) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        guard index < b.count else { return nil }
        var offset = 0
        switch b[index] {
        case 90, 122:
            index += 1
        case 43, 45:
            guard let oh = digits(index + 1, 2), index + 3 < b.count, b[index + 3] == 58,
                  let om = digits(index + 4, 2), oh < 24, om < 60 else { return nil }
            offset = (oh * 3600 + om * 60) * (b[index] == 45 ? -1 : 1)
            index += 6
        default:
            return nil
        }
        guard index == b.count else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = Double(days * 86_400 + hour * 3600 + minute * 60 + second - offset) + fraction
        return Date(timeIntervalSince1970: seconds)
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    // Howard Hinnant's days_from_civil / civil_from_days.
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    private static func civil(fromDays days: Int64) -> (Int, Int, Int) {
        let z = Int(days) + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

extension Int64 {
    fileprivate func floorDivided(by divisor: Int64) -> (Int64, Int64) {
        let q = self / divisor, r = self % divisor
        return r < 0 ? (q - 1, r + divisor) : (q, r)
    }
}
