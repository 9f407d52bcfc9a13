public import DecantCharset
public import DecantCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Writes text bodies: the `string` format's encoder. It writes `String`, `Substring` and `DecodedText` (what
/// ``StringResponseSerializer`` reads) in the charset the media type asks for.
///
/// The encoding is the `charset` parameter of the requested media type, any of the 228 WHATWG labels
/// (`TextEncoding(label:)`); without one, a `DecodedText`'s own encoding (when it has an encoder), else UTF-8. The `Content-Type` written is the requested media type
/// with `charset` set to the canonical name of the encoding used, lowercased: `text/plain;charset=utf-8`,
/// `text/html;charset=shift_jis`, and `text/plain;charset=windows-1252` when `iso-8859-1` was asked for (the WHATWG
/// Encoding Standard maps that label to windows-1252, as every browser reading the body will).
///
/// ```swift
/// let body = try SerializerRegistry.standard.encode("héllo", as: "text/plain;charset=iso-8859-1")
/// body.body          // 68 E9 6C 6C 6F
/// body.contentType   // text/plain;charset=windows-1252
/// ```
///
/// Every encoding the standard gives an encoder is written, with these choices:
///
/// - `utf-16le`, `utf-16be` and `utf-16` (which means UTF-16LE) are written as asked, in that byte order without a
///   byte order mark, and labelled `charset=utf-16le` or `charset=utf-16be`. (The standard itself never encodes
///   UTF-16: browsers submit such forms in UTF-8. An HTTP client that asks for UTF-16 gets UTF-16.)
/// - A label of the `replacement` encoding (`iso-2022-kr`, `hz-gb-2312`, ...) names an encoding browsers refuse and
///   that has no encoder: an error, as an unknown label is.
/// - A character the charset cannot encode (`→` in windows-1252) is an error by default, naming the character and
///   its offset. With ``mode`` set to `TextEncodingMode.html` it is written as a numeric character reference
///   (`&#8594;`), as browsers submit forms; choose it for HTML bodies only, where a reader turns it back into the
///   character. From a configuration, the factory's `encodingMode` option (`"strict"` or `"html"`) sets it.
public struct StringBodyEncoder: BodyEncoder, FormatComponent {
    /// The `string` format.
    public static var format: MediaFormat { .string }

    /// The media ranges written; `text/*` by default.
    public var mediaRanges: [MediaRange]
    /// What a character the charset cannot encode becomes: an error (`TextEncodingMode.strict`, the default) or a
    /// numeric character reference (`TextEncodingMode.html`).
    public var mode: TextEncodingMode

    /// Creates the encoder.
    ///
    /// - Parameters:
    ///   - mediaRanges: The media ranges written; `text/*` by default.
    ///   - mode: What a character the charset cannot encode becomes; an error by default.
    public init(mediaRanges: [MediaRange] = MediaFormat.string.mediaRanges, mode: TextEncodingMode = .strict) {
        self.mediaRanges = mediaRanges
        self.mode = mode
    }

    /// The media type written when the caller leaves the choice to the format: `text/plain` when ``mediaRanges``
    /// covers it (as `text/*` does), else the first exact range.
    public var defaultMediaType: MediaType? {
        let plain = MediaType(type: "text", subtype: "plain")
        if writes(plain) { return plain }
        for range in mediaRanges {
            if case .exact(let type, let subtype) = range.pattern { return MediaType(type: type, subtype: subtype) }
        }
        return nil
    }

    /// Whether `value` is text: every value this format writes is its own, so a `String` goes out as text before it
    /// is a JSON string.
    public func writesAsOwnType(_ value: any Sendable) -> Bool { canEncode(value) }

    /// Whether `value` is a `String`, a `Substring` or a `DecodedText`.
    public func canEncode(_ value: any Sendable) -> Bool {
        value is String || value is Substring || value is DecodedText
    }

    /// Encodes the text of `value` in the charset `mediaType` asks for (UTF-8 without a `charset` parameter).
    ///
    /// - Throws: `SerializationError` with code `unsupportedValue` for a value that is not text; `invalidEncoding`
    ///   when the `charset` parameter names no WHATWG encoding, or the `replacement` encoding; `encodingFailed` for
    ///   a character the charset cannot encode (in strict ``mode``), naming the character and its offset in Unicode
    ///   scalars, with a `TextEncodingError` as `underlying`.
    public func encode(
        _ value: any Sendable, as mediaType: MediaType, options: EncodingOptions
    ) throws(SerializationError) -> EncodedBody {
        var encoding = try encoding(for: mediaType)
        // Text decoded from a body keeps its encoding when the caller names none (and the encoding can be written),
        // so that writing a `DecodedText` and reading it back gives the same value.
        if mediaType.charset == nil, let decoded = value as? DecodedText, decoded.encoding.hasEncoder {
            encoding = decoded.encoding
        }
        let body: Data
        do throws(SerializationError) {
            switch value {
            case let text as String: body = try encoding.encode(text, mode: mode)
            case let text as Substring: body = try encoding.encode(text, mode: mode)
            case let decoded as DecodedText: body = try encoding.encode(decoded.text, mode: mode)
            default: throw unsupportedValue(value, as: mediaType)
            }
        } catch {
            throw error.filling(mediaType: mediaType, serializerID: id)
        }
        return EncodedBody(
            body: body, contentType: mediaType.settingParameter("charset", to: encoding.name.lowercased()),
            serializerID: id)
    }

    /// The encoding `mediaType`'s `charset` parameter names, or UTF-8 without one.
    private func encoding(for mediaType: MediaType) throws(SerializationError) -> TextEncoding {
        guard let label = mediaType.charset else { return .utf8 }
        guard let encoding = TextEncoding(label: label) else {
            throw SerializationError(
                code: .invalidEncoding,
                message: "The charset parameter \"\(label)\" of \(mediaType) is not a label of any encoding in the "
                    + "WHATWG Encoding Standard, so the text cannot be written in it. Ask for a known charset (utf-8, "
                    + "windows-1252, shift_jis, gbk, ...: any label TextEncoding(label:) knows), or leave the charset "
                    + "parameter out to write UTF-8.",
                mediaType: mediaType, serializerID: id)
        }
        guard encoding.hasEncoder else {
            throw SerializationError(
                code: .invalidEncoding,
                message: "The charset parameter \"\(label)\" of \(mediaType) names an encoding browsers refuse to "
                    + "use (the WHATWG Encoding Standard maps it to 'replacement', which has no encoder). Ask for "
                    + "utf-8, or leave the charset parameter out to write UTF-8.",
                mediaType: mediaType, serializerID: id)
        }
        return encoding
    }
}
