/// How ``FormParser`` reads a body, and the limits that keep untrusted input cheap.
///
/// Every allocation the parser makes is bounded by the body's size, which ``maxBytes`` bounds, and the number of
/// fields by ``maxPairs``. Exceeding either fails with `SerializationError.Code.limitExceeded`, and the message names
/// the option to raise.
public struct FormParsingOptions: Sendable, Hashable {
    /// The default of ``maxPairs``: 10,000 fields.
    public static let defaultMaxPairs = 10_000
    /// The default of ``maxBytes``: 16 MiB.
    public static let defaultMaxBytes = 16 * 1024 * 1024

    /// The most fields (non-empty `&`-separated sequences) a body may hold. Empty sequences (`a=1&&b=2`) are not
    /// counted: the parser skips them without allocating.
    public var maxPairs: Int
    /// The largest body parsed, in bytes. Decoded names and values are never longer than the body, so this also
    /// bounds every string the parser builds.
    public var maxBytes: Int

    /// Creates options; the defaults suit request and response bodies of ordinary web forms.
    public init(
        maxPairs: Int = FormParsingOptions.defaultMaxPairs,
        maxBytes: Int = FormParsingOptions.defaultMaxBytes
    ) {
        self.maxPairs = maxPairs
        self.maxBytes = maxBytes
    }
}
