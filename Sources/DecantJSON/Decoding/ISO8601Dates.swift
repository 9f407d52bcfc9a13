#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// ISO 8601 dates, read as `JSONDecoder`'s `.iso8601` strategy reads them.
enum ISO8601Dates {
    private static let plain = Date.ISO8601FormatStyle()
    private static let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// The date of `text`, or `nil` when `Date.ISO8601FormatStyle` rejects it.
    static func parse(_ text: String, fractionalSeconds: Bool) -> Date? {
        try? (fractionalSeconds ? fractional : plain).parse(text)
    }
}
