/// The limits and choices of ``MessagePackParser``, with safe defaults for untrusted input.
public struct MessagePackParsingOptions: Sendable, Hashable {
    /// The default ``maxDepth``: 512.
    public static let defaultMaxDepth = 512
    /// The default ``maxBytes``: 64 MiB.
    public static let defaultMaxBytes = 64 * 1024 * 1024

    /// The deepest nesting of arrays and maps (option `maxDepth`). The parser does not recurse, nor do comparing and
    /// hashing a value, but its canonical form and releasing it recurse once per level, so keep this bounded.
    public var maxDepth: Int
    /// The largest body parsed, in bytes (option `maxBytes`).
    public var maxBytes: Int
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
        replacesInvalidUTF8: Bool = false,
        allowsMultipleValues: Bool = false
    ) {
        self.maxDepth = maxDepth
        self.maxBytes = maxBytes
        self.replacesInvalidUTF8 = replacesInvalidUTF8
        self.allowsMultipleValues = allowsMultipleValues
    }
}
