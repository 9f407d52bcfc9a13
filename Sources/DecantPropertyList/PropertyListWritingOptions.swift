/// How ``PropertyListWriter`` writes a ``PropertyListValue``: the format, the key order and the depth limit.
///
/// ```swift
/// let options = PropertyListWritingOptions(format: .binary, sortedKeys: true)
/// let bytes = try PropertyListWriter(options: options).write(value)
/// ```
public struct PropertyListWritingOptions: Sendable, Hashable {
    /// The property list formats Decant writes. OpenStep (old-style ASCII) property lists are read only: Apple's own
    /// tools no longer write them, and they cannot hold dates, Booleans or numbers as such.
    public enum Format: String, Sendable, Hashable, CaseIterable {
        /// XML, or binary when the value holds a UID, which only binary property lists can carry. The default.
        case auto
        /// XML property lists (the Apple plist DTD), laid out as Python's `plistlib` writes them.
        case xml
        /// Binary property lists (`bplist00`), laid out as Python's `plistlib` writes them.
        case binary
    }

    /// The format written.
    public var format: Format
    /// Whether dictionary keys are written in the order of their UTF-8 bytes (as `plistlib` does by default) rather
    /// than in the dictionary's order.
    public var sortedKeys: Bool
    /// The deepest nesting of arrays and dictionaries written: a deeper value fails with
    /// `SerializationError.Code.limitExceeded`. Default 512, ``PropertyListParsingOptions/defaultMaxDepth``, so that
    /// what is written is read back with the default parsing options. Writing never recurses, whatever the limit.
    public var maxDepth: Int

    /// Options with the given format, key order and depth limit.
    public init(
        format: Format = .auto, sortedKeys: Bool = false,
        maxDepth: Int = PropertyListParsingOptions.defaultMaxDepth
    ) {
        self.format = format
        self.sortedKeys = sortedKeys
        self.maxDepth = maxDepth
    }
}
