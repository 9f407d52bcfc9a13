/// A set of HTTP status codes, as ranges: `200..<300`, `[200, 201, 204]`, `.success`.
public struct StatusCodes: Sendable, Hashable, CustomStringConvertible, ExpressibleByArrayLiteral {
    /// The ranges, as given.
    public var ranges: [ClosedRange<Int>]

    /// Creates a set from closed ranges.
    public init(_ ranges: [ClosedRange<Int>]) { self.ranges = ranges }

    /// Creates a set from a half-open range such as `200..<300`.
    public init(_ range: Range<Int>) { self.ranges = range.isEmpty ? [] : [range.lowerBound...(range.upperBound - 1)] }

    /// Creates a set from individual codes.
    public init(arrayLiteral codes: Int...) { self.ranges = codes.map { $0...$0 } }

    /// 200-299, the default acceptable statuses.
    public static let success = StatusCodes(200..<300)

    /// Whether `status` is in the set.
    public func contains(_ status: Int) -> Bool { ranges.contains { $0.contains(status) } }

    /// `200-299`, `200, 204`.
    public var description: String {
        ranges.map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)-\($0.upperBound)" }
            .joined(separator: ", ")
    }
}
