import DecantCore

/// Text decoded by a ``CharsetPipeline``: the string, the encoding used and why that one.
///
/// It is the output of the `string` serializer (`DecantString`). Its ``description`` is the text itself, so
/// `print(decoded)` prints the body.
public struct DecodedText: Sendable, Hashable, CustomStringConvertible {
    /// Why the pipeline chose the encoding.
    public enum Source: Sendable, Hashable, CustomStringConvertible {
        /// A byte order mark at the start of the body (UTF-8, UTF-16BE or UTF-16LE); it wins over any label
        /// (WHATWG Encoding §6, "decode" and "BOM sniff").
        case byteOrderMark
        /// The `charset` parameter of the media type, with the label as written.
        case charsetParameter(label: String)
        /// The default for the media type (no BOM and no `charset` parameter).
        case mediaTypeDefault
        /// The `charset` parameter named no WHATWG encoding (`label`, as written), and the pipeline was told to fall
        /// back to the default instead of failing.
        case fallbackAfterUnknownLabel(label: String)

        /// `byte order mark`, `charset parameter "shift_jis"`, `media type default`, or
        /// `default after unknown charset "foo"`.
        public var description: String {
            switch self {
            case .byteOrderMark: "byte order mark"
            case .charsetParameter(let label): "charset parameter \"\(label)\""
            case .mediaTypeDefault: "media type default"
            case .fallbackAfterUnknownLabel(let label): "default after unknown charset \"\(label)\""
            }
        }
    }

    /// The decoded text, without the byte order mark.
    public let text: String
    /// The encoding the body was decoded with.
    public let encoding: TextEncoding
    /// Why ``encoding`` was chosen.
    public let source: Source
    /// The length in bytes of the byte order mark removed from the start of the body: 3 (UTF-8), 2 (UTF-16) or 0.
    public let byteOrderMarkLength: Int

    /// Creates a decoded text.
    public init(text: String, encoding: TextEncoding, source: Source, byteOrderMarkLength: Int = 0) {
        self.text = text
        self.encoding = encoding
        self.source = source
        self.byteOrderMarkLength = byteOrderMarkLength
    }

    /// The ``text``.
    public var description: String { text }
}
