import Foundation

extension Date {
    public init(milliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    public var milliseconds: Int64 { Int64((timeIntervalSince1970 * 1000).rounded()) }
}
