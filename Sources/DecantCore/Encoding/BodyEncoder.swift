#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A body a format wrote: the bytes and the exact `Content-Type` that describes them (with `charset` where it
/// applies).
public struct EncodedBody: Sendable, Hashable, CustomStringConvertible {
    /// The bytes.
    public var body: Data
    /// The media type of the bytes, to send as `Content-Type`.
    public var contentType: MediaType
    /// The id of the format that wrote it.
    public var serializerID: SerializerID

    /// Creates an encoded body.
    public init(body: Data, contentType: MediaType, serializerID: SerializerID) {
        self.body = body
        self.contentType = contentType
        self.serializerID = serializerID
    }

    /// The header fields that describe the body: `Content-Type` and `Content-Length`.
    public var headerFields: HTTPHeaderFields {
        HTTPHeaderFields([
            HTTPHeaderFields.Field(name: "Content-Type", value: contentType.description),
            HTTPHeaderFields.Field(name: "Content-Length", value: String(body.count)),
        ])
    }

    /// The body as the response a client would receive with it (status 200 unless given): what decoding it back
    /// reads, so `registry.serialize(body.response())` gives the value again.
    public func response(status: Int = 200) -> Response {
        Response(status: status, headers: headerFields, body: body)
    }

    /// `application/json (42 bytes, by 'json')`.
    public var description: String { "\(contentType) (\(body.count) bytes, by '\(serializerID)')" }
}

/// A format's writing capability: encodes values (its own value type, and `Encodable` values where the format
/// decodes `Decodable` ones) into bodies of its media types.
///
/// A format provides one from its factory's ``SerializerFactory/makeEncoder(options:)``. The registry asks
/// ``canEncode(_:)`` before choosing a format for a value, so that content negotiation only offers media types that
/// can carry the value (a `JSONValue` object is never a `text/plain` body), then calls ``encode(_:as:options:)``
/// with the negotiated media type.
///
/// ```swift
/// struct LinesEncoder: BodyEncoder, FormatComponent {
///     static var format: MediaFormat { .lines }
///     func canEncode(_ value: any Sendable) -> Bool { value is [Substring] }
///     func encode(
///         _ value: any Sendable, as mediaType: MediaType, options: EncodingOptions
///     ) throws(SerializationError) -> EncodedBody {
///         guard let lines = value as? [Substring] else { throw unsupportedValue(value, as: mediaType) }
///         return EncodedBody(
///             body: Data(lines.joined(separator: "\n").utf8), contentType: "text/plain;charset=utf-8",
///             serializerID: id)
///     }
/// }
/// ```
public protocol BodyEncoder: Sendable {
    /// The format's id.
    var id: SerializerID { get }
    /// The media ranges it writes: an exact range is a type it writes when asked for anything it matches (the first
    /// one when nothing else decides); a wildcard range (`*/*+json`) is a family of types it writes when asked for
    /// one of them by name.
    var mediaRanges: [MediaRange] { get }

    /// The media type written when the caller leaves the choice to the format (no `Accept`, or a wildcard that
    /// matches it). Defaults to the first exact range of ``mediaRanges``; a catch-all format (`*/*`) names one, such
    /// as `application/octet-stream`.
    var defaultMediaType: MediaType? { get }

    /// Whether `value` is of a type this format writes. Called before choosing the format, so it must not encode.
    func canEncode(_ value: any Sendable) -> Bool

    /// Whether `value` is of the format's own value type (`JSONValue` for JSON, `String` or `DecodedText` for text,
    /// `Data` for `data`) rather than a value it writes through `Encodable`. Where the quality and specificity of
    /// two media types tie, negotiation prefers the format whose own type the value is, so a `String` goes out as
    /// text and a struct as JSON. Defaults to `false`.
    func writesAsOwnType(_ value: any Sendable) -> Bool

    /// Encodes `value` as a body of `mediaType`, one of the types ``mediaRanges`` match (its parameters, such as
    /// `charset`, are requests the encoder honours where it can).
    ///
    /// - Throws: ``SerializationError`` with code ``SerializationError/Code/unsupportedValue`` when the value is not
    ///   of a type the format writes, ``SerializationError/Code/encodingFailed`` when this value cannot be written
    ///   (a NaN in JSON, a character the charset lacks), with the coding path where known, or
    ///   ``SerializationError/Code/limitExceeded``.
    func encode(
        _ value: any Sendable, as mediaType: MediaType, options: EncodingOptions
    ) throws(SerializationError)
        -> EncodedBody
}

extension BodyEncoder where Self: FormatComponent {
    /// The format's id.
    public var id: SerializerID { Self.format.id }
    /// The format's media ranges.
    public var mediaRanges: [MediaRange] { Self.format.mediaRanges }
}

extension BodyEncoder {
    /// `false`: every value is written through `Encodable` unless the format says otherwise.
    public func writesAsOwnType(_ value: any Sendable) -> Bool { false }

    /// The first exact range of ``mediaRanges``, as a media type.
    public var defaultMediaType: MediaType? { exactTypes.first }

    /// The media types the encoder offers when a wildcard such as `*/*` leaves the choice to it:
    /// ``defaultMediaType``, then the other exact ranges of ``mediaRanges``, in order.
    public var writtenTypes: [MediaType] {
        var types = exactTypes
        if let preferred = defaultMediaType {
            types.removeAll { $0 == preferred }
            types.insert(preferred, at: 0)
        }
        return types
    }

    /// The exact ranges of ``mediaRanges`` as media types.
    private var exactTypes: [MediaType] {
        mediaRanges.compactMap { range in
            guard case .exact(let type, let subtype) = range.pattern else { return nil }
            return MediaType(type: type, subtype: subtype, parameters: range.parameters)
        }
    }

    /// Whether this encoder writes `mediaType`: one of its ranges matches its essence (see
    /// ``MediaRange/mostSpecific(of:writing:)``).
    public func writes(_ mediaType: MediaType) -> Bool {
        MediaRange.mostSpecific(of: mediaRanges, writing: mediaType) != nil
    }

    /// The error for a value of a type the format does not write
    /// (``SerializationError/Code/unsupportedValue``).
    public func unsupportedValue(_ value: any Sendable, as mediaType: MediaType) -> SerializationError {
        SerializationError(
            code: .unsupportedValue,
            message: "The format '\(id)' cannot write a \(type(of: value)) as \(mediaType.essence). Pass a value of a "
                + "type it writes, or choose a media type whose format writes \(type(of: value)).",
            mediaType: mediaType, serializerID: id)
    }
}

extension SerializationError.Code {
    /// No media type the registry can write satisfies the request's `Accept` (an HTTP server answers 406).
    public static let notAcceptable = Self("notAcceptable")
    /// The value is not of a type the chosen format writes.
    public static let unsupportedValue = Self("unsupportedValue")
    /// The format could not write this value (a NaN in JSON, a character the charset cannot encode, a key that is
    /// not a string); the coding path says where.
    public static let encodingFailed = Self("encodingFailed")
}

extension MediaRange {
    /// The most specific of `ranges` whose pattern matches `mediaType`'s essence, or `nil`: the one rule for which
    /// format writes a media type. The parameters of `mediaType` (`charset`) are requests to the encoder, and those
    /// of a range are ignored, so `text/plain;charset=utf-16` is written by a format claiming `text/plain`.
    public static func mostSpecific(of ranges: [MediaRange], writing mediaType: MediaType) -> MediaRange? {
        let essence = mediaType.withoutParameters
        var best: MediaRange?
        for range in ranges where MediaRange(range.pattern).matches(essence) {
            if let current = best, current.specificity >= range.specificity { continue }
            best = range
        }
        return best
    }
}
