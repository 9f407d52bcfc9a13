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
