public import DecantCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Writes MessagePack bodies: the `msgpack` format's `BodyEncoder`.
///
/// It writes a ``MessagePackValue`` with ``MessagePackWriter`` (each item in its smallest form) and any `Encodable`
/// value through ``MessagePackEncoder``, with the key, date and data strategies and `userInfo` of the
/// `EncodingOptions` given (the other options do not apply). The `Content-Type` is the requested media type without
/// parameters: `application/msgpack`, the format's first range, unless `application/x-msgpack` or
/// `application/vnd.msgpack` is asked for.
///
/// ```swift
/// var registry = SerializerRegistry()
/// registry.install(.msgpack)
/// let body = try registry.encode(MessagePackValue.array([.int(1)]), as: "application/msgpack")
/// body.body   // 91 01
/// ```
public struct MessagePackBodyEncoder: BodyEncoder, FormatComponent {
    /// The `msgpack` format.
    public static var format: MediaFormat { .msgpack }

    /// The media ranges written; the format's unless set.
    public var mediaRanges: [MediaRange]
    /// The deepest nesting of an `Encodable` value (``MessagePackEncoder/maxDepth``).
    public var maxDepth: Int

    /// Creates the encoder.
    public init(
        maxDepth: Int = MessagePackParsingOptions.defaultMaxDepth,
        mediaRanges: [MediaRange] = MediaFormat.msgpack.mediaRanges
    ) {
        self.maxDepth = maxDepth
        self.mediaRanges = mediaRanges
    }

    /// Whether `value` is a ``MessagePackValue`` or `Encodable`.
    public func canEncode(_ value: any Sendable) -> Bool {
        value is MessagePackValue || value is any Encodable
    }

    /// Whether `value` is a ``MessagePackValue``, the format's own value type.
    public func writesAsOwnType(_ value: any Sendable) -> Bool { value is MessagePackValue }

    /// Writes `value` as a body of `mediaType`.
    ///
    /// - Throws: `SerializationError` with code `unsupportedValue` for a value that is neither a
    ///   ``MessagePackValue`` nor `Encodable`; `encodingFailed` and `limitExceeded` as
    ///   ``MessagePackEncoder/encodeValue(_:)`` and ``MessagePackWriter/write(_:)`` throw them; with the media type
    ///   attached.
    public func encode(
        _ value: any Sendable, as mediaType: MediaType, options: EncodingOptions
    ) throws(SerializationError) -> EncodedBody {
        let contentType = mediaType.withoutParameters
        let body: Data
        do throws(SerializationError) {
            if let item = value as? MessagePackValue {
                body = try MessagePackWriter().write(item)
            } else if let encodable = value as? any Encodable {
                var encoder = MessagePackEncoder(options: options)
                encoder.maxDepth = maxDepth
                body = try encoder.encode(encodable)
            } else {
                throw unsupportedValue(value, as: mediaType)
            }
        } catch {
            throw error.filling(mediaType: contentType, serializerID: id)
        }
        return EncodedBody(body: body, contentType: contentType, serializerID: id)
    }
}
