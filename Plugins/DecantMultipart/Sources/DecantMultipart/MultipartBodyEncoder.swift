public import DecantCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The writing capability of the `multipart` format: a ``MultipartBody`` (the value the format reads) back to a
/// body, so that `SerializerRegistry.encode(_:as:options:)` writes multipart bodies.
///
/// The parts are written by ``MultipartWriter``: their header fields and bytes (``MultipartPart/body``, encoded again
/// with the part's `Content-Transfer-Encoding` where that is `base64` or `quoted-printable`) as they are; a part's
/// decoded ``MultipartPart/value`` is not encoded again. The body's boundary is kept when it is valid and absent from
/// the parts, otherwise a random one is generated. The `Content-Type` written is the requested media type with its
/// parameters (or, when it has none, those of ``MultipartBody/mediaType`` if that has the same essence, such as a
/// `multipart/related` body's `type` and `start`) and the `boundary` used.
///
/// To build a request body part by part, with values encoded through a registry and files streamed from disk, use
/// ``MultipartUpload``.
///
/// ```swift
/// let registry = SerializerRegistry.standard.installing(.multipart(decodingPartsWith: .standard))
/// let written = try registry.encode(body, as: "multipart/mixed")
/// written.contentType   // multipart/mixed;boundary=...
/// ```
public struct MultipartBodyEncoder: BodyEncoder, FormatComponent {
    /// The `multipart` format.
    public static var format: MediaFormat { .multipart }

    /// Creates the encoder.
    public init() {}

    /// Whether `value` is a ``MultipartBody``.
    public func canEncode(_ value: any Sendable) -> Bool { value is MultipartBody }

    /// Whether `value` is a ``MultipartBody``, the format's own value type.
    public func writesAsOwnType(_ value: any Sendable) -> Bool { value is MultipartBody }

    /// Writes `value`, a ``MultipartBody``, as a body of `mediaType`.
    ///
    /// - Throws: `SerializationError`: `unsupportedValue` for any other value; otherwise as
    ///   ``MultipartWriter/write(_:)`` throws, with the media type and the serializer id filled in.
    public func encode(
        _ value: any Sendable, as mediaType: MediaType, options: EncodingOptions
    ) throws(SerializationError) -> EncodedBody {
        guard let body = value as? MultipartBody else { throw unsupportedValue(value, as: mediaType) }
        let written: (bytes: Data, boundary: String)
        do {
            written = try MultipartWriter().write(body)
        } catch {
            throw error.filling(mediaType: mediaType, serializerID: id)
        }
        var contentType = mediaType
        if contentType.parameters.isEmpty, body.mediaType.essence == mediaType.essence {
            contentType = body.mediaType
        }
        return EncodedBody(
            body: written.bytes, contentType: contentType.settingParameter("boundary", to: written.boundary),
            serializerID: id)
    }
}

extension MultipartSerializerFactory {
    /// The format's encoder, ``MultipartBodyEncoder``.
    public func makeEncoder(options: Options) -> (any BodyEncoder)? { MultipartBodyEncoder() }
}
