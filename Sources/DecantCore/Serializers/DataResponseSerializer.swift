#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Returns the body bytes as they are: AFNetworking's `AFHTTPResponseSerializer`, for any media type.
///
/// Its id is `data`. Its empty value is empty `Data`. Install it with `registry.install(.data)` to give every
/// response a fallback; `SerializerRegistry.standard` (in the `Decant` module) does not, so that unknown types fail clearly instead.
public struct DataResponseSerializer: ResponseSerializer {
    /// The ranges accepted; `*/*` by default.
    public var mediaRanges: [MediaRange]

    /// Creates the serializer.
    public init(mediaRanges: [MediaRange] = [.any]) {
        self.mediaRanges = mediaRanges
    }

    /// `data`.
    public var id: SerializerID { "data" }

    /// The body.
    public func serialize(_ response: Response) throws -> Data { response.body }

    /// Empty `Data`.
    public func emptyValue(for response: Response) throws -> Data { Data() }
}
