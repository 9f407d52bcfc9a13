import DecantCore

/// What a decoder does with a byte sequence that is not valid in its encoding (WHATWG Encoding §4.1, "error mode").
public enum TextDecodingMode: Sendable, Hashable {
    /// The standard's "fatal" error mode: decoding stops with a ``TextDecodingError`` at the first invalid sequence.
    case strict
    /// The standard's "replacement" error mode, what browsers do: every invalid sequence becomes one U+FFFD.
    ///
    /// For UTF-8 a sequence is replaced by maximal subparts (the Unicode "best practice for using U+FFFD", which the
    /// standard's UTF-8 decoder implements): `E0 80 41` gives U+FFFD U+FFFD `A`. In multi-byte legacy encodings an
    /// invalid trailing byte that is ASCII is never swallowed: Shift_JIS `82 22` gives U+FFFD `"` (§2).
    case replacement
}
