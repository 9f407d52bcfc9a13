#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// ISO 8601 dates, read as `JSONDecoder`'s `.iso8601` strategy reads them and written as `JSONEncoder`'s writes them.
enum ISO8601Dates {
    private static let plain = Date.ISO8601FormatStyle()
    private static let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// The date of `text`, or `nil` when `Date.ISO8601FormatStyle` rejects it.
    static func parse(_ text: String, fractionalSeconds: Bool) -> Date? {
        try? (fractionalSeconds ? fractional : plain).parse(text)
    }

    /// The text of `date`: an RFC 3339 date-time in UTC (`2024-05-01T12:00:00Z`), with milliseconds when
    /// `fractionalSeconds` (`2024-05-01T12:00:00.250Z`).
    static func format(_ date: Date, fractionalSeconds: Bool) -> String {
        (fractionalSeconds ? fractional : plain).format(date)
    }
}
