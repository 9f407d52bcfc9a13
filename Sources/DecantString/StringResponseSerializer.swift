public import DecantCharset
public import DecantCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Decodes a text body into a string with the WHATWG Encoding charset pipeline: AFNetworking's and Alamofire's
/// string serializers, without their charset guessing.
///
/// The encoding comes from the body's byte order mark, else the `charset` parameter (all 228 WHATWG labels, so
/// `windows-1252`, `shift_jis` and `gbk` decode as themselves instead of silently becoming Latin-1), else the
/// pipeline's default for `text/*` (UTF-8 unless configured; JSON and XML types are always UTF-8). The output,
/// `DecodedText`, says which encoding was used and why. Its id is `string`; it accepts `text/*` by default.
///
/// ```swift
/// let serializer = StringResponseSerializer(pipeline: CharsetPipeline(defaultEncoding: .windows1252, mode: .strict))
/// let decoded = try serializer.serialize(response)
/// print(decoded.text, decoded.encoding, decoded.source)
/// ```
///
/// Its empty value (for 204, `HEAD`, an empty body when the chain's empty-body policy asks for one) is an empty
/// `DecodedText`.
public struct StringResponseSerializer: ResponseSerializer, FormatComponent {
    /// The `string` format.
    public static var format: MediaFormat { .string }

    /// How the body becomes text: the default encoding, strict or replacement mode, unknown-label policy.
    public var pipeline: CharsetPipeline
    /// The media ranges accepted; `text/*` by default.
    public var mediaRanges: [MediaRange]

    /// Creates the serializer.
    ///
    /// - Parameters:
    ///   - pipeline: The charset pipeline; by default UTF-8 for bodies without a BOM or `charset`, replacement mode.
    ///   - mediaRanges: The media ranges accepted; `text/*` by default.
    public init(
        pipeline: CharsetPipeline = CharsetPipeline(),
        mediaRanges: [MediaRange] = MediaFormat.string.mediaRanges
    ) {
        self.pipeline = pipeline
        self.mediaRanges = mediaRanges
    }

    /// Decodes the body with ``pipeline``, using the response's `Content-Type`.
    ///
    /// - Throws: `SerializationError` with code `SerializationError/Code/invalidEncoding` (strict mode, or an
    ///   unknown `charset` label when the pipeline treats it as an error), carrying this serializer's id, the
    ///   media type, the byte offset and the response.
    public func serialize(_ response: Response) throws(SerializationError) -> DecodedText {
        do {
            return try pipeline.decode(response.body, mediaType: response.contentType)
        } catch {
            throw error.filling(response: response, mediaType: response.contentType, serializerID: id)
        }
    }

    /// An empty `DecodedText` in the encoding the `Content-Type` names (or the default).
    public func emptyValue(for response: Response) throws -> DecodedText {
        let mediaType = response.contentType
        if let decoded = try? pipeline.decode(Data(), mediaType: mediaType) { return decoded }
        let label = mediaType?.charset ?? ""
        return DecodedText(
            text: "", encoding: pipeline.fallbackEncoding(for: mediaType),
            source: .fallbackAfterUnknownLabel(label: label))
    }
}

extension MediaFormat {
    /// Text decoded to a string by the WHATWG Encoding charset pipeline: id `string`, `text/*`.
    public static let string = MediaFormat(
        id: "string", mediaRanges: ["text/*"],
        summary: "Decodes text bodies to a string by BOM, charset parameter (WHATWG labels) or default encoding.")
}
