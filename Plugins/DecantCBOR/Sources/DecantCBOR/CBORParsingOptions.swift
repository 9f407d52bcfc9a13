/// How ``CBORParser`` reads a body, and the limits that keep untrusted input cheap.
///
/// Exceeding a limit fails with `SerializationError.Code.limitExceeded`, and the message names the option to raise.
public struct CBORParsingOptions: Sendable, Hashable {
    /// What to do when a map has the same key twice (RFC 8949 §5.6: such a map is not valid).
    public enum DuplicateKeyPolicy: String, Sendable, Hashable, CaseIterable {
        /// The body is rejected with `SerializationError.Code.invalidBody` at the repeated key.
        case reject
        /// The last value wins, at the position of the key's first occurrence.
        case lastWins
    }

    /// The default of ``maxDepth``: 512.
    public static let defaultMaxDepth = 512
    /// The default of ``maxItems``: 1,000,000.
    public static let defaultMaxItems = 1_000_000

    /// The deepest nesting of arrays, maps, tags and indefinite-length strings. Default 512. The parser keeps its own
    /// stack, and ``CBORValue`` compares and hashes with one, so those are safe at any limit; but Swift releases a
    /// value recursively, so keep the limit in the thousands (the configuration option allows up to 10,000).
    public var maxDepth: Int
    /// The most data items a body may declare: each top-level item, and array elements and map keys and values,
    /// counted as their containers' lengths are read (before the items themselves), elements of indefinite-length
    /// containers as they come. Default 1,000,000.
    ///
    /// An item takes as little as one byte of a body but some 24 bytes in a ``CBORValue`` tree and more while its
    /// canonical form is made, so this, not the body size, bounds what a body of tiny items costs: at the default,
    /// about 60 MB for the tree and its canonical form together.
    public var maxItems: Int
    /// What to do with duplicate map keys. Default ``DuplicateKeyPolicy/reject``.
    public var duplicateKeys: DuplicateKeyPolicy
    /// Whether the two-byte form of simple values 0-31 (`f8 00` to `f8 1f`) is accepted as `simple(n)`, as RFC 7049
    /// did (its Appendix A lists `f8 18` as `simple(24)`). Default `false`: RFC 8949 §3.3 makes it not well-formed.
    public var allowsTwoByteLowSimpleValues: Bool

    /// Creates options; every parameter has the default described on its property.
    public init(
        maxDepth: Int = CBORParsingOptions.defaultMaxDepth,
        maxItems: Int = CBORParsingOptions.defaultMaxItems,
        duplicateKeys: DuplicateKeyPolicy = .reject,
        allowsTwoByteLowSimpleValues: Bool = false
    ) {
        self.allowsTwoByteLowSimpleValues = allowsTwoByteLowSimpleValues
        self.maxDepth = maxDepth
        self.maxItems = maxItems
        self.duplicateKeys = duplicateKeys
    }
}
