public import DecantCore

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Turns a body into text the way the WHATWG Encoding Standard's "decode" (§6) does, with the media type's
/// `charset` parameter as the label: byte order mark first, then the `charset` parameter, then a default.
///
/// 1. A byte order mark (`EF BB BF` UTF-8, `FE FF` UTF-16BE, `FF FE` UTF-16LE) wins over everything and is removed
///    ("BOM sniff", §6). Deployed content shows the BOM is more accurate than labels.
/// 2. Otherwise the `charset` parameter, resolved through all 228 WHATWG labels by ``TextEncoding/init(label:)``
///    (`iso-8859-1` means windows-1252, `utf-16` means UTF-16LE, `gb2312` means GBK, ...). An unknown label is an
///    error or falls back to the default, by ``unknownLabelIsError``.
/// 3. Otherwise the default: UTF-8 for JSON and XML media types (``defaultEncoding(for:)``), ``defaultEncoding``
///    for everything else (`text/*` included).
///
/// ```swift
/// let pipeline = CharsetPipeline(defaultEncoding: .windows1252, mode: .strict)
/// let decoded = try pipeline.decode(body, mediaType: response.contentType)
/// print(decoded.encoding, decoded.source)   // Shift_JIS charset parameter "shift_jis"
/// ```
///
/// Invalid bytes become U+FFFD in ``TextDecodingMode/replacement`` mode (the default, what browsers do) and a
/// `SerializationError` with code `SerializationError.Code.invalidEncoding` and the byte offset in
/// ``TextDecodingMode/strict`` mode.
public struct CharsetPipeline: Sendable, Hashable {
    /// The encoding for bodies with no byte order mark and no (known) `charset` parameter, unless the media type is
    /// JSON or XML (those are always UTF-8). UTF-8 by default; windows-1252 or ``TextEncoding/isoLatin1`` suit old
    /// servers that send `text/*` in Latin-1 without saying so.
    public var defaultEncoding: TextEncoding
    /// What happens to invalid bytes: U+FFFD (``TextDecodingMode/replacement``) or an error
    /// (``TextDecodingMode/strict``).
    public var mode: TextDecodingMode
    /// Whether a `charset` parameter that is not a WHATWG label is an error
    /// (`SerializationError.Code.invalidEncoding`) rather than a fallback to the default encoding (reported as
    /// ``DecodedText/Source/fallbackAfterUnknownLabel(label:)``).
    ///
    /// By default it follows the mode at initialization: an error in strict mode, a fallback in replacement mode,
    /// where decoding never fails.
    public var unknownLabelIsError: Bool

    /// Creates a pipeline.
    ///
    /// - Parameters:
    ///   - defaultEncoding: The encoding when there is no BOM and no known `charset` (JSON and XML excepted: UTF-8).
    ///   - mode: What happens to invalid bytes.
    ///   - unknownLabelIsError: Whether an unknown `charset` label is an error; `nil` (the default) means "in strict
    ///     mode only".
    public init(
        defaultEncoding: TextEncoding = .utf8,
        mode: TextDecodingMode = .replacement,
        unknownLabelIsError: Bool? = nil
    ) {
        self.defaultEncoding = defaultEncoding
        self.mode = mode
        self.unknownLabelIsError = unknownLabelIsError ?? (mode == .strict)
    }

    /// The standard default encoding of a media type when it has no `charset` parameter: always UTF-8.
    ///
    /// JSON (RFC 8259 §8.1) and XML without an encoding declaration (XML 1.0 §4.3.3, RFC 7303) are UTF-8; `text/*`
    /// has had no ISO-8859-1 default since RFC 7231 (HTTP/1.1 in RFC 2616 §3.7.1 had one; choose
    /// ``TextEncoding/isoLatin1`` or ``TextEncoding/windows1252`` as ``defaultEncoding`` for servers that still assume
    /// it), and UTF-8 is the only sensible default for everything else.
    public static func defaultEncoding(for mediaType: MediaType?) -> TextEncoding {
        .utf8
    }

    /// The encoding this pipeline falls back to for `mediaType`: ``defaultEncoding(for:)`` for JSON and XML media
    /// types, ``defaultEncoding`` for all others.
    public func fallbackEncoding(for mediaType: MediaType?) -> TextEncoding {
        if let mediaType, mediaType.isJSON || mediaType.isXML { return CharsetPipeline.defaultEncoding(for: mediaType) }
        return defaultEncoding
    }

    /// The encoding a byte order mark at the start of `body` selects and the mark's length, or `nil` (the
    /// standard's "BOM sniff", §6).
    public static func byteOrderMark(in body: Data) -> (encoding: TextEncoding, length: Int)? {
        var iterator = body.makeIterator()
        let first = iterator.next()
        let second = iterator.next()
        let third = iterator.next()
        switch (first, second, third) {
        case (0xEF, 0xBB, 0xBF): return (.utf8, 3)
        case (0xFE, 0xFF, _): return (.utf16BE, 2)
        case (0xFF, 0xFE, _): return (.utf16LE, 2)
        default: return nil
        }
    }

    /// Decodes `body` as text: the encoding comes from its byte order mark, else the `charset` parameter of
    /// `mediaType`, else the default (see ``CharsetPipeline``).
    ///
    /// - Parameters:
    ///   - body: The body bytes, byte order mark included.
    ///   - mediaType: The response's media type, or `nil` when it has none.
    /// - Returns: The text (without the BOM), the encoding used, and why that one.
    /// - Throws: `SerializationError` with code `SerializationError.Code.invalidEncoding`: for an unknown label
    ///   when ``unknownLabelIsError`` is set, and in strict mode for the first invalid byte sequence, with its
    ///   `SerializationError.offset` in `body` (BOM included) and the ``TextDecodingError`` as
    ///   `SerializationError.underlying`.
    public func decode(_ body: Data, mediaType: MediaType?) throws(SerializationError) -> DecodedText {
        let encoding: TextEncoding
        let source: DecodedText.Source
        var bomLength = 0
        if let (bomEncoding, length) = CharsetPipeline.byteOrderMark(in: body) {
            encoding = bomEncoding
            source = .byteOrderMark
            bomLength = length
        } else if let label = mediaType?.charset {
            if let labelled = TextEncoding(label: label) {
                encoding = labelled
                source = .charsetParameter(label: label)
            } else if unknownLabelIsError {
                throw unknownLabelError(label, mediaType: mediaType)
            } else {
                encoding = fallbackEncoding(for: mediaType)
                source = .fallbackAfterUnknownLabel(label: label)
            }
        } else {
            encoding = fallbackEncoding(for: mediaType)
            source = .mediaTypeDefault
        }
        let mode = self.mode
        let result: Result<String, TextDecodingError> = body.withUnsafeBytes { raw in
            let bytes = raw.assumingMemoryBound(to: UInt8.self)
            let text = UnsafeBufferPointer(rebasing: bytes[min(bomLength, bytes.count)...])
            do throws(TextDecodingError) {
                return .success(try encoding.decode(buffer: text, mode: mode))
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let text):
            return DecodedText(text: text, encoding: encoding, source: source, byteOrderMarkLength: bomLength)
        case .failure(let error):
            throw invalidBytesError(
                error, body: body, bomLength: bomLength, encoding: encoding, source: source, mediaType: mediaType)
        }
    }

    private func unknownLabelError(_ label: String, mediaType: MediaType?) -> SerializationError {
        SerializationError(
            code: .invalidEncoding,
            message: "The charset parameter \"\(label)\" is not a label of any encoding in the WHATWG Encoding "
                + "Standard. Fix the charset parameter (for example charset=utf-8), or let unknown labels fall back "
                + "to the default encoding (\(fallbackEncoding(for: mediaType))) with unknownLabelIsError = false.",
            mediaType: mediaType
        )
    }

    private func invalidBytesError(
        _ error: TextDecodingError, body: Data, bomLength: Int, encoding: TextEncoding, source: DecodedText.Source,
        mediaType: MediaType?
    ) -> SerializationError {
        let offset = error.offset + bomLength
        let shown = body.dropFirst(offset).prefix(4).map { byte in
            let digits = String(byte, radix: 16, uppercase: true)
            return byte < 0x10 ? "0" + digits : digits
        }
        var message = "The body is not valid \(encoding) at byte \(offset)"
        if !shown.isEmpty { message += " (" + shown.joined(separator: " ") + ")" }
        let essence = mediaType?.essence ?? "a body without a media type"
        switch source {
        case .byteOrderMark:
            message +=
                ", which its byte order mark says it is. Send valid \(encoding) bytes, remove the byte order "
                + "mark, "
        case .charsetParameter(let label):
            message +=
                ", which its charset parameter \"\(label)\" says it is. Send valid \(encoding) bytes, fix the "
                + "charset parameter, "
        case .mediaTypeDefault:
            message +=
                ", the default for \(essence) without a charset parameter. Send valid \(encoding) bytes, add "
                + "a charset parameter naming the body's encoding, "
        case .fallbackAfterUnknownLabel(let label):
            message +=
                ", the default used because the charset parameter \"\(label)\" names no known encoding. Fix "
                + "the charset parameter, "
        }
        message += "or decode in replacement mode to get U+FFFD for invalid bytes."
        return SerializationError(
            code: .invalidEncoding, message: message, mediaType: mediaType, offset: offset, underlying: error)
    }
}
