import Foundation

/// A point in time as the contract writes it: read from RFC 3339 (with offset or `Z`) or from
/// epoch seconds; written as RFC 3339 UTC with milliseconds (`2026-11-22T06:10:22.000Z`).
public struct Timestamp: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// Milliseconds since the Unix epoch.
    public var milliseconds: Int64

    /// Times before 2000 or after 2200 are refused as implausible sensor clocks.
    public static let plausibleRange: ClosedRange<Int64> = 946_684_800_000...7_258_118_400_000

    public init(milliseconds: Int64) { self.milliseconds = milliseconds }

    public init(secondsSinceEpoch seconds: Double) {
        milliseconds = Int64((seconds * 1000).rounded())
    }

    public init(_ date: Date) { self.init(secondsSinceEpoch: date.timeIntervalSince1970) }

    public static func now() -> Timestamp { Timestamp(Date()) }

    public var date: Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }
    public var secondsSinceEpoch: Double { Double(milliseconds) / 1000 }

    public static func < (a: Timestamp, b: Timestamp) -> Bool { a.milliseconds < b.milliseconds }

    public func adding(seconds: Double) -> Timestamp { Timestamp(milliseconds: milliseconds + Int64((seconds * 1000).rounded())) }

    public var description: String { rfc3339 }

    // MARK: Reading

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`; `t`/`z` and a space separator are accepted.
    public init?(rfc3339 text: some StringProtocol) {
        let b = Array(text.utf8)
        guard b.count >= 20 else { return nil }
        func digits(_ at: Int, _ count: Int) -> Int? {
            guard at + count <= b.count else { return nil }
            var value = 0
            for i in at..<(at + count) {
                let c = b[i]
                guard c >= 0x30 && c <= 0x39 else { return nil }
                value = value * 10 + Int(c - 0x30)
            }
            return value
        }
        guard let year = digits(0, 4), b[4] == UInt8(ascii: "-"), let month = digits(5, 2), b[7] == UInt8(ascii: "-"),
            let day = digits(8, 2), b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t") || b[10] == UInt8(ascii: " "),
            let hour = digits(11, 2), b[13] == UInt8(ascii: ":"), let minute = digits(14, 2), b[16] == UInt8(ascii: ":"),
            let second = digits(17, 2)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= Timestamp.daysIn(month: month, year: year), hour <= 23, minute <= 59,
            second <= 60
        else { return nil }
        var i = 19
        var fractionMillis = 0
        if i < b.count && b[i] == UInt8(ascii: ".") {
            i += 1
            var scale = 100
            let start = i
            while i < b.count, b[i] >= 0x30 && b[i] <= 0x39 {
                fractionMillis += Int(b[i] - 0x30) * scale
                scale /= 10
                i += 1
            }
            guard i > start else { return nil }
        }
        guard i < b.count else { return nil }
        var offsetSeconds = 0
        if b[i] == UInt8(ascii: "Z") || b[i] == UInt8(ascii: "z") {
            i += 1
        } else if b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
            let sign = b[i] == UInt8(ascii: "-") ? -1 : 1
            guard let oh = digits(i + 1, 2), i + 3 < b.count, b[i + 3] == UInt8(ascii: ":"), let om = digits(i + 4, 2),
                oh <= 23, om <= 59
            else { return nil }
            offsetSeconds = sign * (oh * 3600 + om * 60)
            i += 6
        } else {
            return nil
        }
        guard i == b.count else { return nil }
        let days = Timestamp.daysFromCivil(year: year, month: month, day: day)
        let seconds = Int64(days) * 86400 + Int64(hour * 3600 + minute * 60 + min(second, 59)) - Int64(offsetSeconds)
        milliseconds = seconds * 1000 + Int64(fractionMillis)
    }

    /// Reads a JSON value: an RFC 3339 string or a number of epoch seconds.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let seconds = try? container.decode(Double.self) {
            guard seconds.isFinite, abs(seconds) < 1e13 else {
                throw ContractViolation(path: decoder.codingPath, "time must be RFC 3339 or epoch seconds, got \(seconds)")
            }
            self.init(secondsSinceEpoch: seconds)
        } else if let text = try? container.decode(String.self) {
            guard let parsed = Timestamp(rfc3339: text) else {
                throw ContractViolation(
                    path: decoder.codingPath, "time must be RFC 3339 with offset or Z, got \(ContractViolation.quote(text))")
            }
            self = parsed
        } else {
            throw ContractViolation(path: decoder.codingPath, "time must be an RFC 3339 string or epoch seconds")
        }
        guard Timestamp.plausibleRange.contains(milliseconds) else {
            throw ContractViolation(path: decoder.codingPath, "time \(rfc3339) is outside 2000-2200")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rfc3339)
    }

    // MARK: Writing

    /// RFC 3339, UTC, milliseconds.
    public var rfc3339: String {
        let totalSeconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        let millis = Int(milliseconds - totalSeconds * 1000)
        let days = totalSeconds >= 0 ? totalSeconds / 86400 : (totalSeconds - 86399) / 86400
        let secondOfDay = Int(totalSeconds - days * 86400)
        let (y, m, d) = Timestamp.civilFromDays(Int(days))
        var out = [UInt8]()
        out.reserveCapacity(24)
        func put(_ value: Int, _ width: Int) {
            var digits = [UInt8](repeating: 0x30, count: width)
            var v = value
            for i in stride(from: width - 1, through: 0, by: -1) {
                digits[i] = UInt8(0x30 + v % 10)
                v /= 10
            }
            out.append(contentsOf: digits)
        }
        put(y, 4); out.append(UInt8(ascii: "-")); put(m, 2); out.append(UInt8(ascii: "-")); put(d, 2)
        out.append(UInt8(ascii: "T"))
        put(secondOfDay / 3600, 2); out.append(UInt8(ascii: ":")); put(secondOfDay / 60 % 60, 2)
        out.append(UInt8(ascii: ":")); put(secondOfDay % 60, 2); out.append(UInt8(ascii: ".")); put(millis, 3)
        out.append(UInt8(ascii: "Z"))
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: Civil calendar (Howard Hinnant's algorithms)

    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    static func civilFromDays(_ z0: Int) -> (Int, Int, Int) {
        let z = z0 + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
