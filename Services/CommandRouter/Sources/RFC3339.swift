import Foundation
import GuardianShared

/// The router's `Date`s in the contract's time form, through `Timestamp`: parsing accepts an offset or
/// `Z` and any fraction (kept to the millisecond); formatting gives UTC with milliseconds.
enum RFC3339 {
    static func format(_ date: Date) -> String { Timestamp(date).rfc3339 }

    static func parse(_ text: String) -> Date? { Timestamp(rfc3339: text)?.date }
}
