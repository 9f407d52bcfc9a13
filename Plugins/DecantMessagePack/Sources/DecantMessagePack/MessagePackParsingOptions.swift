/// The limits and choices of ``MessagePackParser``, with safe defaults for untrusted input.
public struct MessagePackParsingOptions: Sendable, Hashable {
    /// The default ``maxDepth``: 512.
    public static let defaultMaxDepth = 512
    /// The default ``maxBytes``: 64 MiB.
    public static let defaultMaxBytes = 64 * 1024 * 1024
    /// The default ``maxItems``: 1,000,000.
    public static let defaultMaxItems = 1_000_000

    /// The deepest nesting of arrays and maps (option `maxDepth`). The parser does not recurse, nor do comparing,
    /// hashing and writing the canonical form of a value, but Swift releases a value recursively, once per level, so
    /// keep this bounded.
    public var maxDepth: Int
    /// The largest body parsed, in bytes (option `maxBytes`).
    public var maxBytes: Int
    /// The most values a body may hold (option `maxItems`): the top-level value (each one of a stream, with
    /// ``allowsMultipleValues``), array elements, and map keys and values. Elements, keys and values are counted as
    /// their container's head is read, before they are, so a body declaring more fails at that head. Default
    /// 1,000,000.
    ///
    /// A value takes as little as one byte of a body but some 24 bytes in a ``MessagePackValue`` tree and more in
    /// its canonical form, so this, not the body size, bounds what a body of tiny values costs: at the default,
    /// about 60 MB for the tree and its canonical form together.
    public var maxItems: Int
    /// Whether a str that is not valid UTF-8 has its bad sequences replaced with U+FFFD (option
    /// `replaceInvalidUTF8`) instead of failing with `invalidEncoding`. Default `false`.
    public var replacesInvalidUTF8: Bool
    /// Whether a body may hold a stream of several top-level values (option `allowsMultipleValues`), decoded as one
    /// array of them. Default `false`: bytes after the single top-level value are an error.
    public var allowsMultipleValues: Bool

    /// Creates options.
    public init(
        maxDepth: Int = MessagePackParsingOptions.defaultMaxDepth,
        maxBytes: Int = MessagePackParsingOptions.defaultMaxBytes,
        maxItems: Int = MessagePackParsingOptions.defaultMaxItems,
        replacesInvalidUTF8: Bool = false,
        allowsMultipleValues: Bool = false
    ) {
        self.maxDepth = maxDepth
        self.maxBytes = maxBytes
        self.maxItems = maxItems
        self.replacesInvalidUTF8 = replacesInvalidUTF8
        self.allowsMultipleValues = allowsMultipleValues
    }
}
