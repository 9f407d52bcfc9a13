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

/// The error of a strict-mode decode: the first byte sequence that is not valid in the encoding.
public struct TextDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The encoding the bytes were decoded with.
    public let encoding: TextEncoding
    /// The byte offset of the first invalid sequence in the decoded bytes: where its first byte is (for a truncated
    /// multi-byte sequence, its lead byte; for a lone byte that cannot start a sequence, that byte).
    public let offset: Int
    /// A sentence naming the encoding, the offset and the bytes found there, such as
    /// `The bytes are not valid Shift_JIS at byte offset 17 (82 22).`
    public let description: String

    /// Creates an error.
    public init(encoding: TextEncoding, offset: Int, description: String) {
        self.encoding = encoding
        self.offset = offset
        self.description = description
    }

    /// An error at `offset` in `input`, describing up to four bytes found there.
    init(encoding: TextEncoding, offset: Int, input: UnsafeBufferPointer<UInt8>) {
        let shown = input.isEmpty ? [] : Array(input[min(offset, input.count)..<min(offset + 4, input.count)])
        var text = "The bytes are not valid \(encoding.name) at byte offset \(offset)"
        if shown.isEmpty {
            text += " (the input ends inside a character)."
        } else {
            let hex = shown.map { byte in
                let digits = String(byte, radix: 16, uppercase: true)
                return byte < 0x10 ? "0" + digits : digits
            }
            text += " (" + hex.joined(separator: " ") + (offset + 4 < input.count ? " ...)." : ").")
        }
        self.init(encoding: encoding, offset: offset, description: text)
    }
}

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
