#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Returns the body bytes as they are: AFNetworking's `AFHTTPResponseSerializer`, for any media type.
///
/// Its id is `data`. Its empty value is empty `Data`. Install it with `registry.install(.data)` to give every
/// response a fallback; `SerializerRegistry.standard` (in the `Decant` module) does not, so that unknown types fail clearly instead.
public struct DataResponseSerializer: ResponseSerializer, FormatComponent {
    /// The `data` format.
    public static var format: MediaFormat { .data }

    /// The ranges accepted; the format's `*/*` by default.
    public var mediaRanges: [MediaRange]

    /// Creates the serializer.
    public init(mediaRanges: [MediaRange] = MediaFormat.data.mediaRanges) {
        self.mediaRanges = mediaRanges
    }

    /// The body.
    public func serialize(_ response: Response) throws -> Data { response.body }

    /// Empty `Data`.
    public func emptyValue(for response: Response) throws -> Data { Data() }
}

extension MediaFormat {
    /// The body bytes as they are, for any media type: id `data`, `*/*`.
    public static let data = MediaFormat(
        id: "data", mediaRanges: [.any], summary: "Returns the body bytes unchanged (any media type).")
}

/// Writes `Data` as it is, as any media type: the `data` format's encoder. Without a media type to write it chooses
/// `application/octet-stream`.
///
/// ```swift
/// let body = try SerializerRegistry(modules: [.data]).encode(Data([0x89, 0x50]), as: "image/png")
/// ```
public struct DataBodyEncoder: BodyEncoder, FormatComponent {
    /// The `data` format.
    public static var format: MediaFormat { .data }

    /// Creates the encoder.
    public init() {}

    /// `application/octet-stream`.
    public var defaultMediaType: MediaType? { MediaType(type: "application", subtype: "octet-stream") }

    /// Whether `value` is `Data`.
    public func canEncode(_ value: any Sendable) -> Bool { value is Data }

    /// Whether `value` is `Data`: every value this format writes is its own.
    public func writesAsOwnType(_ value: any Sendable) -> Bool { value is Data }

    /// The bytes of `value`, labelled `mediaType` as given (parameters included).
    ///
    /// - Throws: ``SerializationError`` with code ``SerializationError/Code/unsupportedValue`` for anything but
    ///   `Data`.
    public func encode(
        _ value: any Sendable, as mediaType: MediaType, options: EncodingOptions
    ) throws(SerializationError) -> EncodedBody {
        guard let data = value as? Data else { throw unsupportedValue(value, as: mediaType) }
        return EncodedBody(body: data, contentType: mediaType, serializerID: id)
    }
}
